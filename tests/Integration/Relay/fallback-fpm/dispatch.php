<?php

// An FPM endpoint dispatching while the relay is down (AppFpmFallbackTest): the request is
// journaled, and sent once the browser has its response.
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

$client = new WarmHttp\Client([
    'relay' => (string) getenv('WARMHTTP_RELAY'),
    'relay_allow_private_networks' => true,
    'relay_fallback_dir' => (string) getenv('WARMHTTP_FALLBACK_DIR'),
]);
$tag = is_string($_GET['tag'] ?? null) ? $_GET['tag'] : 'none';
$client->dispatch($client->createRequest('POST', getenv('WARMHTTP_UPSTREAM') . '/slow?ms=1500&tag=' . rawurlencode($tag)));
echo 'dispatched';
