<?php

// A stand-in relay that records what reaches it: every request's bytes (head and body, as
// written on the socket) go to argv[2], one JSON string a line; each gets an empty 200.
declare(strict_types=1);

[, $socket, $log] = $argv;
$server = stream_socket_server('unix://' . $socket, $errno, $errstr);
if ($server === false) {
    fwrite(\STDERR, (string) $errstr);
    exit(1);
}
$connections = [];
while (true) {
    $read = [$server, ...$connections];
    $write = $except = null;
    if (@stream_select($read, $write, $except, null) === false) {
        exit(1);
    }
    foreach ($read as $ready) {
        if ($ready === $server) {
            $accepted = stream_socket_accept($server);
            if ($accepted !== false) {
                $connections[] = $accepted;
            }
            continue;
        }
        $head = '';
        while (!str_contains($head, "\r\n\r\n") && ($byte = fread($ready, 1)) !== false && $byte !== '') {
            $head .= $byte;
        }
        if ($head === '') {
            fclose($ready);
            $connections = array_filter($connections, static fn($c) => $c !== $ready);
            continue;
        }
        $length = preg_match('/\r\ncontent-length:\s*(\d+)/i', $head, $m) === 1 ? (int) $m[1] : 0;
        $body = $length > 0 ? (string) stream_get_contents($ready, $length) : '';
        file_put_contents($log, json_encode($head . $body) . "\n", \FILE_APPEND);
        fwrite($ready, "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    }
}
