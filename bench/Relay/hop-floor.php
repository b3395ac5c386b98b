<?php

// The forwarding side of HopFloor: the least a relay hop can be. It waits in stream_select as
// the relay front does, reads a request head from a kept unix-socket caller, forwards it with
// one kept, warmed curl easy handle (curl_exec, blocking: TLS + HTTP/2 as WarmCurl's), and
// answers with a Content-Length. No parsing beyond the target, no spool, no curl multi.
// Usage: php hop-floor.php SOCKET_PATH CAFILE; ends at EOF on stdin (its parent went) or SIGTERM.
declare(strict_types=1);

[, $path, $cafile] = $argv + [1 => '', 2 => ''];
$server = $path === '' ? false : @stream_socket_server('unix://' . $path, $errno, $errstr);
if ($server === false || $cafile === '') {
    fwrite(\STDERR, 'usage: php hop-floor.php SOCKET_PATH CAFILE' . ($server === false ? " (cannot listen: {$path})" : '') . "\n");
    exit(2);
}
$curl = curl_init();
curl_setopt_array($curl, [\CURLOPT_RETURNTRANSFER => true, \CURLOPT_CAINFO => $cafile, \CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_2TLS]);
/** @var array<int, resource> $callers by resource id */
$callers = [];
/** @var array<int, string> $pending by resource id: what a caller sent that is not a whole head yet */
$pending = [];
while (true) {
    $read = [$server, \STDIN, ...array_values($callers)];
    $write = $except = null;
    if (@stream_select($read, $write, $except, 1) < 1) {
        continue;
    }
    foreach ($read as $ready) {
        if ($ready === \STDIN) {
            if (fread(\STDIN, 8192) === '' && feof(\STDIN)) {
                exit(0);
            }
        } elseif ($ready === $server) {
            $caller = @stream_socket_accept($server, 0);
            if ($caller !== false) {
                $callers[(int) $caller] = $caller;
                $pending[(int) $caller] = '';
            }
        } else {
            $left = forwardWholeRequests($ready, $pending[(int) $ready], $curl);
            if ($left === null) {
                unset($callers[(int) $ready], $pending[(int) $ready]);
                fclose($ready);
            } else {
                $pending[(int) $ready] = $left;
            }
        }
    }
}

/**
 * Answers every whole request head of what the caller sent; returns what is left of it, or
 * null when the caller closed.
 *
 * @param resource $socket
 */
function forwardWholeRequests($socket, string $pending, CurlHandle $curl): ?string
{
    $bytes = fread($socket, 65536);
    if ($bytes === false || $bytes === '') {
        return null;
    }
    $buffer = $pending . $bytes;
    while (($end = strpos($buffer, "\r\n\r\n")) !== false) {
        $target = explode(' ', substr($buffer, 0, (int) strpos($buffer, "\r\n")))[1] ?? '';
        $buffer = substr($buffer, $end + 4); // GET requests only: no body follows
        curl_setopt($curl, \CURLOPT_URL, $target === '' ? 'http://invalid.invalid/' : $target);
        $body = curl_exec($curl);
        $status = is_string($body) ? curl_getinfo($curl, \CURLINFO_RESPONSE_CODE) : 502;
        $body = is_string($body) ? $body : curl_error($curl);
        fwrite($socket, "HTTP/1.1 {$status} Forwarded\r\nContent-Length: " . strlen($body) . "\r\n\r\n" . $body);
    }

    return $buffer;
}
