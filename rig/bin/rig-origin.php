<?php

declare(strict_types=1);

/*
 * Raw HTTP/1.1 origin of the WarmHttp test rig (see WarmHttp\Rig\RawOrigin).
 * Usage: php rig/bin/rig-origin.php DIR   (writes DIR/port, DIR/stats.json)
 */

use WarmHttp\Rig\Server\ChildRuntime;
use WarmHttp\Rig\Server\OriginServer;

require __DIR__ . '/rig-autoload.php';

if ($argc < 2 || !is_dir($argv[1])) {
    fwrite(STDERR, "usage: rig-origin.php DIR\n");
    exit(2);
}

(new OriginServer(new ChildRuntime($argv[1])))->run();
