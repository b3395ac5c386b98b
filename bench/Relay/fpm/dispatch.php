<?php

// seeds/004 with WarmHttp: the endpoint hands its outgoing POST to the relay.
declare(strict_types=1);

require dirname(__DIR__, 3) . '/vendor/autoload.php';

$client = new WarmHttp\Client(['relay' => (string) getenv('WARMHTTP_RELAY')]);
$client->dispatch($client->createRequest('POST', (string) getenv('WARMHTTP_UPSTREAM'))->withBody($client->createStream('{"hello":"world"}')));
echo 'dispatched';
