<?php

declare(strict_types=1);

// Router for the PSR-18 conformance test (php -S): records what arrived (server variables and
// body) as JSON in $WARMHTTP_RECORD, then answers as the query string asks.
$record = getenv('WARMHTTP_RECORD');
if (is_string($record) && $record !== '') {
    file_put_contents($record, json_encode(['SERVER' => $_SERVER, 'BODY' => file_get_contents('php://input')]), \LOCK_EX);
}
$query = $_GET;

if (isset($query['status']) && is_string($query['status'])) {
    http_response_code((int) $query['status']);
    if (!in_array((int) $query['status'], [204, 304], true)) {
        echo 'status ' . $query['status'];
    }

    return;
}
if (isset($query['client_error'])) {
    http_response_code(400);
} elseif (isset($query['server_error'])) {
    http_response_code(500);
} elseif (isset($query['redirect'])) {
    http_response_code(302);
    header('Location: /');
    echo 'Redirect';

    return;
} elseif (isset($query['utf8'])) {
    header('Content-Type: text/plain; charset=utf-8');
    echo 'Prix: 10 €, Grüße, 日本';

    return;
} elseif (isset($query['gzip'])) {
    header('Content-Encoding: gzip');
    echo gzencode('{"gzipped": true}');

    return;
} elseif (isset($query['chunked'])) {
    // No Content-Length and flushed in parts: php -S sends Transfer-Encoding: chunked.
    foreach (['{"part":', ' 1, "of":', ' 3}'] as $part) {
        echo $part;
        flush();
    }

    return;
} elseif (isset($query['length'])) {
    echo strlen((string) file_get_contents('php://input'));

    return;
}
echo 'Ok';
