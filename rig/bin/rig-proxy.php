<?php

declare(strict_types=1);

/*
 * Latency-adding TCP proxy of the WarmHttp test rig (see WarmHttp\Rig\LatencyProxy).
 * Usage: php rig/bin/rig-proxy.php DIR TARGET_HOST TARGET_PORT ONE_WAY_DELAY_MS [HANDSHAKE=1|0]
 */

use WarmHttp\Rig\Server\ChildRuntime;
use WarmHttp\Rig\Server\ProxyServer;

require __DIR__ . '/rig-autoload.php';

if ($argc < 5 || !is_dir($argv[1])) {
    fwrite(STDERR, "usage: rig-proxy.php DIR TARGET_HOST TARGET_PORT ONE_WAY_DELAY_MS\n");
    exit(2);
}

(new ProxyServer(new ChildRuntime($argv[1]), $argv[2], (int) $argv[3], (float) $argv[4] / 1000, '0' !== ($argv[5] ?? '1')))->run();
