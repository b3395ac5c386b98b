<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * A load generator for the relay's socket, in its public wire protocol (docs/relay.md): HTTP/1.1
 * POSTs in absolute form on $concurrency kept connections, each sending its next request on
 * its previous 202. Many callers at once, as under PHP-FPM, so group commit can batch them.
 *
 * @internal benchmark tooling
 */
final class RelayLoad
{
    /** @var array<int, resource> */
    private array $sockets = [];
    /** @var array<int, string> socket id => bytes read of the pending answer */
    private array $buffers = [];
    private int $next = 0;
    private int $accepted = 0;
    private int $refused = 0;
    private string $lastRefusal = '';

    /** @param list<string> $requests wire-form requests, see request() */
    private function __construct(private readonly array $requests) {}

    public static function request(string $url, string $body): string
    {
        $authority = (string) parse_url($url, \PHP_URL_HOST) . ':' . (int) parse_url($url, \PHP_URL_PORT);

        return \sprintf("POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", $url, $authority, \strlen($body), $body);
    }

    /**
     * Sends every request and waits for every answer.
     *
     * @param list<string> $requests
     *
     * @return array{accepted: int, refused: int, lastRefusal: string}
     */
    public static function send(string $socketPath, array $requests, int $concurrency, float $timeoutSeconds): array
    {
        $load = new self($requests);
        try {
            $load->open($socketPath, min($concurrency, \count($requests)));
            $load->run(microtime(true) + $timeoutSeconds);
        } finally {
            array_map(fclose(...), $load->sockets);
        }

        return ['accepted' => $load->accepted, 'refused' => $load->refused, 'lastRefusal' => $load->lastRefusal];
    }

    private function open(string $socketPath, int $connections): void
    {
        for ($i = 0; $i < $connections; ++$i) {
            $socket = @stream_socket_client('unix://' . $socketPath, $errno, $errstr, 2.0);
            if ($socket === false) {
                throw new \RuntimeException(\sprintf('Cannot connect to the relay at %s: %s', $socketPath, $errstr));
            }
            stream_set_blocking($socket, false);
            $this->sockets[$i] = $socket;
            $this->sendNext($i);
        }
    }

    private function run(float $deadline): void
    {
        while ($this->buffers !== []) {
            $read = array_intersect_key($this->sockets, $this->buffers);
            $write = $except = null;
            if (microtime(true) > $deadline) {
                throw new \RuntimeException(\sprintf('The relay answered %d of %d hand-offs before the timeout.', $this->accepted + $this->refused, \count($this->requests)));
            }
            if (@stream_select($read, $write, $except, 0, 100_000) === false) {
                throw new \RuntimeException('stream_select() failed on the relay sockets.');
            }
            foreach (array_keys($read) as $i) {
                $this->receive($i);
            }
        }
    }

    private function receive(int $i): void
    {
        $chunk = (string) @fread($this->sockets[$i], 65536);
        if ($chunk === '' && feof($this->sockets[$i])) {
            throw new \RuntimeException('The relay closed a connection before answering: ' . $this->buffers[$i]);
        }
        $buffer = $this->buffers[$i] . $chunk;
        $end = strpos($buffer, "\r\n\r\n");
        $length = $end === false ? 0 : (preg_match('/\r\ncontent-length:\s*(\d+)/i', substr($buffer, 0, $end), $m) === 1 ? (int) $m[1] : 0);
        if ($end === false || \strlen($buffer) < $end + 4 + $length) {
            $this->buffers[$i] = $buffer;

            return;
        }
        if (str_starts_with($buffer, 'HTTP/1.1 202')) {
            ++$this->accepted;
        } else {
            ++$this->refused;
            $this->lastRefusal = strtok($buffer, "\r") ?: $buffer;
        }
        $this->sendNext($i);
    }

    private function sendNext(int $i): void
    {
        unset($this->buffers[$i]);
        if ($this->next >= \count($this->requests)) {
            return;
        }
        $request = $this->requests[$this->next++];
        // Requests are small; a blocking write of one cannot stall on a unix socket's buffer.
        stream_set_blocking($this->sockets[$i], true);
        fwrite($this->sockets[$i], $request);
        stream_set_blocking($this->sockets[$i], false);
        $this->buffers[$i] = '';
    }
}
