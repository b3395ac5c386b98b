<?php

// seeds/004 with its Node.js forwarder, as the article wrote it: the endpoint opens a socket to
// the local forwarder per request (fsockopen, 0.1 s), writes its POST with Connection: Close and
// closes without reading the answer. A failed connect is logged and the request dropped.
declare(strict_types=1);

require dirname(__DIR__, 3) . '/vendor/autoload.php';

if (!WarmHttp\Bench\Relay\FsockopenHandOff::send((string) getenv('WARMHTTP_NODE_URL'), '{"hello":"world"}')) {
    error_log('node hand-off failed');
}
echo 'forwarded';
