<?php

// One caller of the Node forwarder's throughput row (NodeBench::deliveries()): waits for a line
// on stdin (so every caller starts together), then hands off ids FIRST, FIRST+STEP, ... below
// COUNT with seeds/004's fsockopen per call, appending each id to URL_PREFIX, and prints how
// many hand-offs left it (the others failed to connect or write, as the article logs and drops).
declare(strict_types=1);

require dirname(__DIR__, 2) . '/vendor/autoload.php';

if (count($argv) !== 5) {
    fwrite(\STDERR, "usage: php fsockopen-caller.php URL_PREFIX FIRST STEP COUNT\n");
    exit(2);
}
[, $prefix, $first, $step, $count] = $argv;
fgets(\STDIN);
$sent = 0;
for ($id = (int) $first; $id < (int) $count; $id += max(1, (int) $step)) {
    $sent += WarmHttp\Bench\Relay\FsockopenHandOff::send($prefix . $id, '{"n":' . $id . '}') ? 1 : 0;
}
echo $sent;
