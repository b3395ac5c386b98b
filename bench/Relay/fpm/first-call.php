<?php

// One upstream GET per FPM request, timed inside the endpoint from `new Client` to the body:
// ?mode=sync goes through the relay's warm connections, ?mode=cold opens its own (as every
// FPM request must on PHP 8.2–8.4), ?mode=relay-only writes what a relay_sync Client writes
// by hand on the worker's kept relay socket and reads the answer by its Content-Length: no
// Client at all, so sync minus relay-only is the app's share of the first call and relay-only
// minus the warm floor the relay's; ?mode=hop-floor writes the same bytes to a minimal forwarder
// (HopFloor) instead of the relay: the least any process hop adds to the warm floor.
// WARMHTTP_* come from the pool's environment.
declare(strict_types=1);

require dirname(__DIR__, 3) . '/vendor/autoload.php';

$mode = $_GET['mode'] ?? '';
$start = hrtime(true);
try {
    if ($mode === 'relay-only' || $mode === 'hop-floor') {
        $hop = $mode === 'hop-floor';
        $result = byHand((string) getenv($hop ? 'WARMHTTP_HOP_FLOOR' : 'WARMHTTP_RELAY'), (string) getenv($hop ? 'WARMHTTP_HOP_UPSTREAM' : 'WARMHTTP_SYNC_UPSTREAM'), (string) getenv('WARMHTTP_CAFILE'));
    } else {
        $sync = $mode === 'sync';
        $client = new WarmHttp\Client(['cafile' => (string) getenv('WARMHTTP_CAFILE'), 'timeout' => 10]
            + ($sync ? ['relay' => (string) getenv('WARMHTTP_RELAY'), 'relay_sync' => true] : []));
        $response = $client->sendRequest($client->createRequest('GET', (string) getenv($sync ? 'WARMHTTP_SYNC_UPSTREAM' : 'WARMHTTP_COLD_UPSTREAM')));
        $result = ['status' => $response->getStatusCode(), 'body' => (string) $response->getBody()];
    }
} catch (Throwable $e) {
    $result = ['status' => 0, 'body' => $e::class . ': ' . $e->getMessage()];
}
header('Content-Type: application/json');
echo json_encode(['ms' => (hrtime(true) - $start) / 1e6] + $result);

/**
 * What a relay_sync Client writes, by hand on the worker's kept socket to $address.
 *
 * @return array{status: int, body: string}
 */
function byHand(string $address, string $url, string $cafile): array
{
    $socket = stream_socket_client($address, $errno, $errstr, 2, STREAM_CLIENT_CONNECT | STREAM_CLIENT_PERSISTENT);
    if ($socket === false) {
        throw new RuntimeException((string) $errstr);
    }
    $parts = parse_url($url);
    $host = ($parts['host'] ?? '') . (isset($parts['port']) ? ':' . $parts['port'] : '');
    fwrite($socket, "GET {$url} HTTP/1.1\r\nHost: {$host}\r\nUser-Agent: WarmHttp/0.1.0\r\nAccept-Encoding: gzip\r\nX-WarmHttp-Mode: sync\r\n"
        . 'X-WarmHttp-Transfer: verify=1; cafile=' . rawurlencode($cafile) . "; timeout=10; connect-timeout=10; read-timeout=0\r\n\r\n");
    $answer = '';
    while (($end = strpos($answer, "\r\n\r\n")) === false || strlen($answer) < $end + 4 + contentLength(substr($answer, 0, $end))) {
        $chunk = fread($socket, 65536);
        if ($chunk === false || $chunk === '') {
            throw new RuntimeException('the relay (or the hop floor) closed the connection');
        }
        $answer .= $chunk;
    }

    return ['status' => (int) substr($answer, 9, 3), 'body' => substr($answer, $end + 4)];
}

function contentLength(string $head): int
{
    if (preg_match('/\r\ncontent-length:\s*(\d+)/i', $head, $m) !== 1) {
        throw new RuntimeException('the relay answered without a Content-Length: ' . $head);
    }

    return (int) $m[1];
}
