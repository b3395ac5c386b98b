<?php

// An FPM endpoint handing its outgoing POST to the relay (seeds/004, with WarmHttp).
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

$client = new WarmHttp\Client(['relay' => (string) getenv('WARMHTTP_RELAY')]);
$client->dispatch($client->createRequest('POST', getenv('WARMHTTP_UPSTREAM') . '/echo-body?from=fpm')->withBody($client->createStream('{"hello":"world"}')));
echo 'dispatched';
