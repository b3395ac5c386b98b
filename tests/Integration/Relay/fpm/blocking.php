<?php

// The seeds/004 baseline: the endpoint waits for its outgoing POST (a new client per request, as PHP-FPM forces).
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

$client = new WarmHttp\Client(['cafile' => (string) getenv('WARMHTTP_CAFILE')]);
$client->sendRequest($client->createRequest('POST', getenv('WARMHTTP_UPSTREAM') . '/echo-body?from=fpm')->withBody($client->createStream('{"hello":"world"}')));
echo 'sent';
