<?php

// The answering side of SocketFloor: waits in stream_select like the relay front and answers
// every whole message of $argv[1] bytes on fd 3 with a 202, until SIGTERM or EOF.
declare(strict_types=1);

$socket = fopen('php://fd/3', 'r+');
$messageBytes = (int) ($argv[1] ?? 0);
if ($socket === false || $messageBytes < 1) {
    fwrite(\STDERR, "usage: php socket-floor.php MESSAGE_BYTES (the socket on fd 3)\n");
    exit(2);
}
stream_set_blocking($socket, false);
$answer = "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
$pending = 0;
while (true) {
    $read = [$socket];
    $write = $except = null;
    if (@stream_select($read, $write, $except, 1) === 0) {
        continue;
    }
    $bytes = fread($socket, 65536);
    if ($bytes === false || ($bytes === '' && feof($socket))) {
        exit(0);
    }
    for ($pending += strlen($bytes); $pending >= $messageBytes; $pending -= $messageBytes) {
        fwrite($socket, $answer);
    }
}
