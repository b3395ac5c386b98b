<?php

// An FPM endpoint calling its upstream through the relay's sync mode (WARMHTTP_* from the pool's environment).
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

$client = new WarmHttp\Client(['relay' => (string) getenv('WARMHTTP_RELAY'), 'relay_sync' => true]);
$response = $client->sendRequest($client->createRequest('GET', getenv('WARMHTTP_UPSTREAM') . '/fast'));
echo $response->getStatusCode(), ' ', $response->getBody();
