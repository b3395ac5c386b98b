<?php

declare(strict_types=1);

/*
 * A scripted raw-bytes origin for the hostile-upstream tests (SyncHostileOrigin starts it).
 * Usage: php sync-hostile-origin.php DIR
 * Reads DIR/answers.json ({"path": {"parts": [base64, ...], "close": bool}}) on every request,
 * answers GET /path with exactly those bytes, 200 ms between parts (so the relay sees a head
 * before the rest of its body), then closes if "close"; anything else gets a 404. Appends each
 * request's path to DIR/requests. Writes its port to DIR/port once it listens.
 * Serves any number of connections at once: the relay may hold one kept and open another.
 */

$dir = $argv[1] ?? '';
if (!is_dir($dir)) {
    fwrite(STDERR, "usage: sync-hostile-origin.php DIR\n");
    exit(2);
}
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
if ($server === false) {
    fwrite(STDERR, "cannot listen: $errstr\n");
    exit(1);
}
$name = (string) stream_socket_get_name($server, false);
file_put_contents("$dir/port.tmp", substr($name, strrpos($name, ':') + 1));
rename("$dir/port.tmp", "$dir/port");

/** @var array<int, resource> $sockets */
$sockets = [];
/** @var array<int, string> $pending bytes received and not yet read as a request */
$pending = [];
$deadline = microtime(true) + 300; // a forgotten origin goes away by itself
while (microtime(true) < $deadline) {
    $read = [$server, ...$sockets];
    $write = $except = null;
    if (@stream_select($read, $write, $except, 1) < 1) {
        continue;
    }
    foreach ($read as $socket) {
        if ($socket === $server) {
            $client = @stream_socket_accept($server, 0);
            if ($client !== false) {
                $sockets[(int) $client] = $client;
                $pending[(int) $client] = '';
            }
            continue;
        }
        $id = (int) $socket;
        $bytes = @fread($socket, 65536);
        if ($bytes === false || $bytes === '') {
            fclose($socket);
            unset($sockets[$id], $pending[$id]);
            continue;
        }
        $pending[$id] .= $bytes;
        while (($end = strpos($pending[$id], "\r\n\r\n")) !== false) {
            $head = substr($pending[$id], 0, $end);
            $pending[$id] = (string) substr($pending[$id], $end + 4);
            $path = ltrim(explode(' ', $head)[1] ?? '/', '/');
            file_put_contents("$dir/requests", $path . "\n", FILE_APPEND);
            $answers = json_decode((string) @file_get_contents("$dir/answers.json"), true);
            $answer = is_array($answers) && isset($answers[$path]) && is_array($answers[$path]) ? $answers[$path] : null;
            $parts = $answer === null ? [base64_encode("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")] : (array) $answer['parts'];
            foreach (array_values($parts) as $i => $part) {
                // One answer at a time blocks the others: fine for a test origin.
                usleep($i === 0 ? 0 : 200_000);
                fwrite($socket, (string) base64_decode(is_string($part) ? $part : ''));
            }
            if ($answer !== null && ($answer['close'] ?? false) === true) {
                fclose($socket);
                unset($sockets[$id], $pending[$id]);
                break;
            }
        }
    }
}
