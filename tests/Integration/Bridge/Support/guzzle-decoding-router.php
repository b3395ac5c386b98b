<?php

declare(strict_types=1);

// Router for GuzzleDecodingTest (php -S on loopback): encoded answers, well-formed and not.
// /encoded/<case> serves one of the cases below with its Content-Encoding and Content-Length;
// /bomb serves the file named by WARMHTTP_BOMB (gzip); /paused-gzip sends the first half of a
// gzip stream, waits, then the rest; /echo-accept-encoding says what Accept-Encoding arrived.
$uri = $_SERVER['REQUEST_URI'] ?? '/';
$path = parse_url(is_string($uri) ? $uri : '/', \PHP_URL_PATH);
$path = is_string($path) ? $path : '/';
$text = str_repeat('warm connections, decoded the same way by both handlers. ', 200);

/** @return array{string, string} Content-Encoding and body */
$case = static function (string $name) use ($text): array {
    return match ($name) {
        'gzip' => ['gzip', (string) gzencode($text)],
        'x-gzip' => ['x-gzip', (string) gzencode($text)],
        'upper-gzip' => ['GZIP', (string) gzencode($text)],
        'zlib-as-gzip' => ['gzip', (string) gzcompress($text)],
        'deflate' => ['deflate', (string) gzcompress($text)],
        'raw-deflate' => ['deflate', (string) gzdeflate($text)],
        'stacked' => ['gzip, deflate', (string) gzcompress((string) gzencode($text))],
        'identity' => ['identity', $text],
        'unknown' => ['compress', $text],
        'truncated' => ['gzip', substr((string) gzencode($text), 0, 60)],
        'corrupt' => ['gzip', 'this was never gzip'],
        'trailing' => ['gzip', gzencode($text) . 'junk after the end'],
        'two-members' => ['gzip', gzencode('first ') . gzencode('second')],
        'deflate-trailing' => ['deflate', gzcompress($text) . 'junk'],
        'empty' => ['gzip', ''],
        'six-codings' => ['identity, identity, identity, identity, identity, gzip', (string) gzencode($text)],
        default => ['', ''],
    };
};

$send = static function (string $encoding, string $body): void {
    header('Content-Type: text/plain');
    header('Content-Encoding: ' . $encoding);
    header('Content-Length: ' . strlen($body));
    echo $body;
};

if (str_starts_with($path, '/encoded/')) {
    [$encoding, $body] = $case(substr($path, strlen('/encoded/')));
    $status = is_numeric($_GET['status'] ?? null) ? (int) $_GET['status'] : 200;
    http_response_code($status);
    if ($status === 204 || $status === 304) {
        header('Content-Encoding: ' . $encoding);

        return;
    }
    $send($encoding, $body);

    return;
}
if ($path === '/bomb') {
    $file = getenv('WARMHTTP_BOMB');
    header('Content-Encoding: gzip');
    header('Content-Length: ' . (is_string($file) ? filesize($file) : 0));
    if (is_string($file)) {
        readfile($file);
    }

    return;
}
if ($path === '/paused-gzip') {
    $deflate = deflate_init(\ZLIB_ENCODING_GZIP) ?: throw new \LogicException('no deflate context');
    $first = (string) deflate_add($deflate, str_repeat('before the pause. ', 4096), \ZLIB_SYNC_FLUSH);
    $rest = (string) deflate_add($deflate, str_repeat('after the pause. ', 4096), \ZLIB_FINISH);
    header('Content-Encoding: gzip');
    header('Content-Length: ' . (strlen($first) + strlen($rest)));
    while (ob_get_level() > 0) {
        ob_end_flush();
    }
    echo $first;
    flush();
    usleep((is_numeric($_GET['ms'] ?? null) ? (int) $_GET['ms'] : 1500) * 1000);
    echo $rest;

    return;
}
if ($path === '/echo-accept-encoding') {
    $accept = $_SERVER['HTTP_ACCEPT_ENCODING'] ?? null;
    echo is_string($accept) ? $accept : '(none)';

    return;
}
http_response_code(404);
