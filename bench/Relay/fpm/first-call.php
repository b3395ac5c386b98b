<?php

// One upstream GET per FPM request, timed inside the endpoint from `new Client` to the body:
// ?mode=sync goes through the relay's warm connections, ?mode=cold opens its own (as every
// FPM request must on PHP 8.2–8.4). WARMHTTP_* come from the pool's environment.
declare(strict_types=1);

require dirname(__DIR__, 3) . '/vendor/autoload.php';

$sync = 'sync' === ($_GET['mode'] ?? '');
$start = hrtime(true);
try {
    $client = new WarmHttp\Client(['cafile' => (string) getenv('WARMHTTP_CAFILE'), 'timeout' => 10]
        + ($sync ? ['relay' => (string) getenv('WARMHTTP_RELAY'), 'relay_sync' => true] : []));
    $response = $client->sendRequest($client->createRequest('GET', (string) getenv($sync ? 'WARMHTTP_SYNC_UPSTREAM' : 'WARMHTTP_COLD_UPSTREAM')));
    $result = ['status' => $response->getStatusCode(), 'body' => (string) $response->getBody()];
} catch (Throwable $e) {
    $result = ['status' => 0, 'body' => $e::class . ': ' . $e->getMessage()];
}
header('Content-Type: application/json');
echo json_encode(['ms' => (hrtime(true) - $start) / 1e6] + $result);
