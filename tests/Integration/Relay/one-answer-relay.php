<?php

// A stand-in for a relay that dies under a kept connection: on each connection it answers the
// first request (200, the request line as the body), reads the second and closes without a
// word, as a relay killed after reading would. Every request line read is appended to argv[2].
declare(strict_types=1);

[, $socket, $log] = $argv;
$server = stream_socket_server('unix://' . $socket, $errno, $errstr);
if ($server === false) {
    fwrite(\STDERR, (string) $errstr);
    exit(1);
}
while ($connection = @stream_socket_accept($server, -1)) {
    for ($n = 1; $n <= 2; ++$n) {
        $head = '';
        while (!str_contains($head, "\r\n\r\n") && ($chunk = fread($connection, 1)) !== false && $chunk !== '') {
            $head .= $chunk;
        }
        if ($head === '') {
            break;
        }
        $length = preg_match('/\r\ncontent-length:\s*(\d+)/i', $head, $m) === 1 ? (int) $m[1] : 0;
        $body = $length > 0 ? stream_get_contents($connection, $length) : '';
        $line = strtok($head, "\r\n");
        file_put_contents($log, $line . "\n", FILE_APPEND);
        if ($n === 1) {
            fwrite($connection, sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", strlen((string) $line), $line));
        }
    }
    fclose($connection);
}
