<?php

// seeds/004 baseline: the endpoint waits for its outgoing POST.
declare(strict_types=1);

require dirname(__DIR__, 3) . '/vendor/autoload.php';

$client = new WarmHttp\Client(['timeout' => 10]);
$client->sendRequest($client->createRequest('POST', (string) getenv('WARMHTTP_UPSTREAM'))->withBody($client->createStream('{"hello":"world"}')));
echo 'sent';
