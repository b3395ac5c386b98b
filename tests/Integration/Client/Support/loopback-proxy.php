<?php

declare(strict_types=1);

/*
 * A loopback proxy for the proxy tests: `php loopback-proxy.php http|https|socks5 LOGFILE
 * [CERT KEY]` (https: the http proxy behind TLS with that certificate). Prints its
 * port, then serves until killed. http: CONNECT tunnels and absolute-form requests (each
 * forwarded on a new upstream connection, answered with the connection closed); socks5: no
 * auth or user/password, CONNECT by IPv4 or name. Every request or tunnel it sees is one JSON
 * line in LOGFILE: client connection number, method, target, credentials.
 */

$mode = $argv[1] ?? 'http';
$log = $argv[2] ?? '/dev/null';
$tls = $mode === 'https' ? ['ssl' => ['local_cert' => $argv[3] ?? '', 'local_pk' => $argv[4] ?? '']] : [];
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $error, \STREAM_SERVER_BIND | \STREAM_SERVER_LISTEN, stream_context_create($tls)) ?: exit("listen failed: $error\n");
$name = (string) stream_socket_get_name($server, false);
fwrite(STDOUT, substr($name, strrpos($name, ':') + 1) . "\n");

/** @var array<int, array{0: resource, 1: ?resource, 2: string, 3: int}> $links client, upstream, pending bytes from the client, connection number */
$links = [];
$accepted = 0;
for (;;) {
    $read = [$server];
    foreach ($links as [$client, $upstream]) {
        $read[] = $client;
        if ($upstream !== null) {
            $read[] = $upstream;
        }
    }
    $write = $except = null;
    if (stream_select($read, $write, $except, 1) === false) {
        continue;
    }
    foreach ($read as $socket) {
        if ($socket === $server) {
            $client = @stream_socket_accept($server, 0);
            if ($client !== false && $tls !== [] && stream_socket_enable_crypto($client, true, \STREAM_CRYPTO_METHOD_TLS_SERVER) !== true) {
                fclose($client);
                $client = false;
            }
            if ($client !== false) {
                $links[(int) $client] = [$client, null, '', ++$accepted];
            }
            continue;
        }
        foreach ($links as $id => [$client, $upstream, $pending, $number]) {
            if ($socket !== $client && $socket !== $upstream) {
                continue;
            }
            $bytes = @fread($socket, 65536);
            if ($bytes === '' || $bytes === false) {
                fclose($client);
                if ($upstream !== null) {
                    fclose($upstream);
                }
                unset($links[$id]);
                break;
            }
            if ($upstream !== null) {
                fwrite($socket === $client ? $upstream : $client, $bytes);
                break;
            }
            $links[$id][2] = $pending . $bytes;
            $links[$id][1] = $mode === 'socks5' ? socks5($client, $links[$id][2], $number, $log) : http($client, $links[$id][2], $number, $log);
            break;
        }
    }
}

/**
 * @param resource $client
 *
 * @return resource|null the upstream once the request or tunnel is set up
 */
function http($client, string &$pending, int $number, string $log)
{
    $end = strpos($pending, "\r\n\r\n");
    if ($end === false) {
        return null;
    }
    $head = substr($pending, 0, $end + 4);
    $lines = explode("\r\n", $head);
    [$method, $target] = explode(' ', $lines[0]) + ['', ''];
    $auth = '';
    foreach ($lines as $line) {
        if (stripos($line, 'Proxy-Authorization:') === 0) {
            $auth = trim(substr($line, 20));
        }
    }
    record($log, $number, $method, $target, $auth);
    if ($method === 'CONNECT') {
        $upstream = stream_socket_client('tcp://' . $target, $errno, $error, 5);
        if ($upstream === false) {
            fwrite($client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");

            return null;
        }
        fwrite($client, "HTTP/1.1 200 Connection established\r\n\r\n");
        $pending = substr($pending, $end + 4);

        return $upstream;
    }
    $url = parse_url($target) ?: [];
    $upstream = stream_socket_client(sprintf('tcp://%s:%d', $url['host'] ?? '', $url['port'] ?? 80), $errno, $error, 5);
    if ($upstream === false) {
        fwrite($client, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");

        return null;
    }
    $path = ($url['path'] ?? '/') . (isset($url['query']) ? '?' . $url['query'] : '');
    $rest = array_filter(array_slice($lines, 1), static fn(string $line): bool => $line !== '' && stripos($line, 'Proxy-') !== 0 && stripos($line, 'Connection:') !== 0);
    fwrite($upstream, "$method $path HTTP/1.1\r\n" . implode("\r\n", $rest) . "\r\nConnection: close\r\n\r\n" . substr($pending, $end + 4));
    $pending = '';

    return $upstream;
}

/**
 * @param resource $client
 *
 * @return resource|null
 */
function socks5($client, string &$pending, int $number, string $log)
{
    if (!str_starts_with($pending, "\x05") || strlen($pending) < 2 || strlen($pending) < 2 + ord($pending[1])) {
        return null;
    }
    $wantsAuth = str_contains(substr($pending, 2, ord($pending[1])), "\x02");
    $pending = '';
    fwrite($client, "\x05" . ($wantsAuth ? "\x02" : "\x00"));
    $auth = $wantsAuth ? socks5Credentials($client) : '';
    [$host, $port, $byName] = socks5Target((string) fread($client, 262));
    record($log, $number, 'SOCKS5', ($byName ? 'name:' : 'ip:') . $host . ':' . $port, $auth);
    $upstream = stream_socket_client("tcp://{$host}:{$port}", $errno, $error, 5);
    fwrite($client, "\x05" . ($upstream === false ? "\x05" : "\x00") . "\x00\x01\x7f\x00\x00\x01\x00\x00");

    return $upstream === false ? null : $upstream;
}

/** @param resource $client */
function socks5Credentials($client): string
{
    $reply = (string) fread($client, 513);
    $userLength = ord($reply[1] ?? "\0");
    $passLength = ord($reply[2 + $userLength] ?? "\0");
    fwrite($client, "\x01\x00");

    return substr($reply, 2, $userLength) . ':' . substr($reply, 3 + $userLength, $passLength);
}

/** @return array{string, int, bool} host, port, whether a name was sent (ATYP 3) rather than an IPv4 address */
function socks5Target(string $request): array
{
    $byName = ord($request[3] ?? "\0") === 3;
    $address = $byName ? substr($request, 5, ord($request[4] ?? "\0")) : (string) inet_ntop(substr($request, 4, 4));
    $portBytes = substr($request, $byName ? 5 + strlen($address) : 8, 2);

    return [$address, (ord($portBytes[0] ?? "\0") << 8) | ord($portBytes[1] ?? "\0"), $byName];
}

function record(string $log, int $number, string $method, string $target, string $auth): void
{
    file_put_contents($log, json_encode(['connection' => $number, 'method' => $method, 'target' => $target, 'auth' => $auth]) . "\n", FILE_APPEND | LOCK_EX);
}
