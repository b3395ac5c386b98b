<?php

declare(strict_types=1);

/*
 * The child the CPU group runs under callgrind: one CPU row's client, built from nothing, sends
 * 20 warm-up requests and then N more to URL, one at a time. posix_getppid() marks where the N
 * start and end: callgrind dumps its counts on entering getppid() (Callgrind), so the part
 * between the two marks is the N warm requests alone, start-up and warm-up left out.
 *
 * php bench/Cpu/measured.php ROW URL CAFILE|- VERIFY(0|1) N
 */

use WarmHttp\Bench\Cpu\CpuScenarios;
use WarmHttp\Bench\Tls;

require dirname(__DIR__, 2) . '/vendor/autoload.php';

[, $row, $url, $caFile, $verify, $requests] = $argv + ['', '', '', '-', '1', '0'];
$send = CpuScenarios::named($row)->open(new Tls($caFile === '-' ? null : $caFile, $verify === '1'));
$urls = array_fill(0, max(1, (int) $requests), $url);
$send(...array_fill(0, 20, $url));
$marks = [posix_getppid()];
$send(...$urls);
$marks[] = posix_getppid();
