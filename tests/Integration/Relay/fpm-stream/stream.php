<?php

// One relay_sync request over the kept stream (SyncRoute::send, what Client::sendRequest()
// uses for it), optionally after a dispatch() on the same kept connection; answers what the
// test checks: the status, whether the hop reused a connection, and this worker's pid.
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

use WarmHttp\Client;
use WarmHttp\Internal\Options;
use WarmHttp\Relay\App\SyncRoute;
use WarmHttp\Response;

$options = ['relay' => (string) getenv('WARMHTTP_RELAY'), 'relay_sync' => true, 'relay_allow_private_networks' => true];
$client = new Client($options);
if (isset($_GET['dispatch'])) {
    $client->dispatch($client->createRequest('POST', getenv('WARMHTTP_UPSTREAM') . '/echo-body?from=fpm-stream')->withBody($client->createStream('x')));
}
$response = SyncRoute::of(Options::fromArray($options))?->send($client->createRequest('GET', getenv('WARMHTTP_UPSTREAM') . '/fast'));
header('Content-Type: application/json');
echo json_encode([
    'status' => $response?->getStatusCode(),
    'body' => $response === null ? null : (string) $response->getBody(),
    'reused' => $response instanceof Response ? $response->stats()->reusedConnection : null,
    'pid' => getmypid(),
]);
