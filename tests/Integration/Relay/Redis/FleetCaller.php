<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

/**
 * Hands requests to relays as an application would, on one kept connection per relay socket,
 * and says which were acknowledged (202). A relay that is down or refuses is not retried here:
 * the test counts only what a relay acknowledged.
 */
final class FleetCaller
{
    /** @var array<string, resource> socket address => kept connection */
    private array $connections = [];

    /** The head of the last answer read (its X-WarmHttp-Durability, with --ack=redis). */
    public string $lastHead = '';

    /** @return bool whether the relay answered 202 */
    public function dispatch(string $address, string $url, string $body = 'payload'): bool
    {
        $request = \sprintf("POST %s HTTP/1.1\r\nHost: relay\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s", $url, \strlen($body), $body);
        $connection = $this->connections[$address] ?? $this->connect($address);
        if ($connection === null || @fwrite($connection, $request) !== \strlen($request)) {
            $this->drop($address);

            return false;
        }
        $status = $this->readAnswer($connection);
        if ($status === 0) {
            $this->drop($address);
        }

        return $status === 202;
    }

    /** @return resource|null */
    private function connect(string $address)
    {
        $connection = @stream_socket_client($address, $errno, $errstr, 1.0);
        if ($connection === false) {
            return null;
        }
        stream_set_timeout($connection, 5);

        return $this->connections[$address] = $connection;
    }

    private function drop(string $address): void
    {
        if (isset($this->connections[$address])) {
            @fclose($this->connections[$address]);
            unset($this->connections[$address]);
        }
    }

    /**
     * @param resource $connection
     *
     * @return int the status, 0 when the connection broke
     */
    private function readAnswer($connection): int
    {
        $head = '';
        while (!str_contains($head, "\r\n\r\n")) {
            $line = fgets($connection);
            if ($line === false) {
                return 0;
            }
            $head .= $line;
        }
        $this->lastHead = $head;
        $length = preg_match('/^content-length:\s*(\d+)/mi', $head, $m) === 1 ? (int) $m[1] : 0;
        if ($length > 0 && \strlen((string) fread($connection, $length)) !== $length) {
            return 0;
        }

        return preg_match('~^HTTP/1\.[01] (\d{3})~', $head, $m) === 1 ? (int) $m[1] : 0;
    }
}
