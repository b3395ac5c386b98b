<?php

// A relay_sync request that dies while it reads its answer: a 10 MiB body against an 8 MiB
// memory limit is a fatal error mid-answer, the rest of the answer left in the worker's kept
// socket (RelaySyncFpmStreamTest).
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

use WarmHttp\Client;

ini_set('memory_limit', '8M');
$client = new Client(['relay' => (string) getenv('WARMHTTP_RELAY'), 'relay_sync' => true, 'relay_allow_private_networks' => true]);
$client->sendRequest($client->createRequest('GET', getenv('WARMHTTP_UPSTREAM') . '/bytes/10m'));
echo 'read a 10 MiB answer within 8 MiB: the test cannot show what it means to';
