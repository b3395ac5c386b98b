<?php

declare(strict_types=1);

/*
 * The WireRecorder's server (see WireRecorder.php): listens on 127.0.0.1:0, writes the port to
 * DIR/port, and stores every request it receives, byte for byte, as DIR/request-N.bin (N from 1).
 * A request ends where its own framing says (Content-Length, chunked, or none). Answers by path:
 *   /trailers       chunked, empty body, then a trailer field
 *   /trailers-body  chunked "ok", then a trailer field
 *   /bad-head-drip  a head no client may accept, then a body dripped every 20 ms until the peer
 *                   closes (its close is recorded as DIR/drip-closed: "<bytes dripped>")
 *   anything else   200 with Content-Length: 2 and "ok" (the length but no body for HEAD, as nginx does)
 * An HTTP/1.0 request is answered and its connection closed; an HTTP/2 preface is recorded and
 * the connection closed.
 * Usage: php wire-recorder.php DIR
 */

if ($argc < 2 || !is_dir($argv[1])) {
    fwrite(STDERR, "usage: wire-recorder.php DIR\n");
    exit(2);
}
$dir = $argv[1];
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
if ($server === false) {
    fwrite(STDERR, "cannot listen: $errstr\n");
    exit(1);
}
$name = (string) stream_socket_get_name($server, false);
file_put_contents($dir . '/port.tmp', substr($name, (int) strrpos($name, ':') + 1));
rename($dir . '/port.tmp', $dir . '/port');

/** @var array<int, resource> $sockets by connection id */
$sockets = [];
/** @var array<int, string> $buffers bytes received and not yet taken as a request */
$buffers = [];
/** @var array<int, int> $drips connections dripping a body, and the body bytes sent so far */
$drips = [];
$requests = 0;
$deadline = time() + 600; // never outlive a test run by much

while (time() < $deadline) {
    $read = [$server, ...array_values($sockets)];
    $write = $except = null;
    if (@stream_select($read, $write, $except, 0, $drips !== [] ? 20_000 : 200_000) === false) {
        continue;
    }
    foreach ($read as $socket) {
        if ($socket === $server) {
            $accepted = @stream_socket_accept($server, 0);
            if ($accepted !== false) {
                $sockets[(int) $accepted] = $accepted;
                $buffers[(int) $accepted] = '';
            }
            continue;
        }
        $id = (int) $socket;
        $chunk = @fread($socket, 65536);
        if ($chunk === '' || $chunk === false) {
            hangUp($dir, $sockets, $buffers, $drips, $id);
            continue;
        }
        $buffers[$id] .= $chunk;
        while (isset($sockets[$id]) && ($request = takeRequest($buffers[$id])) !== null) {
            file_put_contents($dir . '/request.tmp', $request);
            rename($dir . '/request.tmp', sprintf('%s/request-%d.bin', $dir, ++$requests));
            $next = answer($socket, $request);
            if ($next === 'drip') {
                $drips[$id] = 2;
            } elseif ($next === 'close') {
                hangUp($dir, $sockets, $buffers, $drips, $id);
            }
        }
    }
    foreach ($drips as $id => $sent) {
        if (@fwrite($sockets[$id], "2\r\nzz\r\n") === false) {
            hangUp($dir, $sockets, $buffers, $drips, $id);
        } else {
            $drips[$id] = $sent + 2;
        }
    }
}

/**
 * @param array<int, resource> $sockets
 * @param array<int, string>   $buffers
 * @param array<int, int>      $drips
 */
function hangUp(string $dir, array &$sockets, array &$buffers, array &$drips, int $id): void
{
    if (isset($drips[$id])) {
        file_put_contents($dir . '/drip-closed', (string) $drips[$id]);
    }
    fclose($sockets[$id]);
    unset($sockets[$id], $buffers[$id], $drips[$id]);
}

/** One whole request taken off the front of the buffer, or null while it is incomplete. */
function takeRequest(string &$buffer): ?string
{
    if (str_starts_with($buffer, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n")) {
        $request = $buffer;
        $buffer = '';

        return $request;
    }
    $end = strpos($buffer, "\r\n\r\n");
    if ($end === false) {
        return null;
    }
    $head = substr($buffer, 0, $end + 4);
    $length = bodyLength($head, substr($buffer, $end + 4));
    if ($length === null || strlen($buffer) < $end + 4 + $length) {
        return null;
    }
    $request = substr($buffer, 0, $end + 4 + $length);
    $buffer = (string) substr($buffer, $end + 4 + $length);

    return $request;
}

/** The body's length on the wire (chunked: up to the end of the last chunk), null while unknown. */
function bodyLength(string $head, string $rest): ?int
{
    if (preg_match('/\r\ntransfer-encoding:[ \t]*chunked/i', $head) === 1) {
        $offset = 0;
        while (($eol = strpos($rest, "\r\n", $offset)) !== false) {
            $size = hexdec(trim(explode(';', substr($rest, $offset, $eol - $offset))[0]));
            if ($size === 0) {
                $end = strpos($rest, "\r\n\r\n", $eol - 2);

                return $end === false ? null : $end + 4;
            }
            $offset = $eol + 2 + (int) $size + 2;
        }

        return null;
    }

    return preg_match('/\r\ncontent-length:[ \t]*(\d+)/i', $head, $m) === 1 ? (int) $m[1] : 0;
}

/**
 * @param resource $socket
 *
 * @return 'keep'|'close'|'drip' what becomes of the connection
 */
function answer($socket, string $request): string
{
    $line = substr($request, 0, (int) strpos($request, "\r\n"));
    $path = explode(' ', $line)[1] ?? '/';
    if (str_starts_with($request, 'PRI * HTTP/2.0')) {
        return 'close';
    }
    fwrite($socket, match ($path) {
        '/trailers' => "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: yes\r\n\r\n",
        '/trailers-body' => "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-Trailer: yes\r\n\r\n",
        '/bad-head-drip' => "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nBad Name: a space in the name\r\n\r\n2\r\nzz\r\n",
        default => "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n" . (str_starts_with($line, 'HEAD ') ? '' : 'ok'),
    });

    return match (true) {
        $path === '/bad-head-drip' => 'drip',
        str_ends_with($line, 'HTTP/1.0') => 'close',
        default => 'keep',
    };
}
