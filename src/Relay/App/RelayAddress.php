<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use WarmHttp\Exception\InvalidOptionException;

/**
 * Where the relay listens, from the `relay` option: `unix:///run/warmhttp/relay.sock`, or
 * `tcp://127.0.0.1:8787` (loopback only; the TCP listener requires `relay_token`).
 *
 * @internal
 */
final readonly class RelayAddress
{
    private function __construct(
        public ?string $socketPath,
        public ?string $host,
        public ?int $port,
    ) {}

    public static function parse(string $address): self
    {
        if (str_starts_with($address, 'unix://')) {
            $path = substr($address, 7);
            if ($path === '' || $path[0] !== '/') {
                throw new InvalidOptionException(\sprintf('Option "relay": "%s" needs an absolute socket path, as in unix:///run/warmhttp/relay.sock.', $address));
            }

            return new self($path, null, null);
        }
        if (preg_match('#^tcp://(127\.\d+\.\d+\.\d+|\[::1\]|localhost):(\d{1,5})$#D', $address, $m) === 1) {
            return new self(null, $m[1], (int) $m[2]);
        }

        throw new InvalidOptionException(\sprintf(
            'Option "relay": "%s" is not a relay address; expected unix:///path/to/relay.sock or tcp://127.0.0.1:PORT (the relay listens on loopback only).',
            $address,
        ));
    }

    /** A stream_socket_client() address. */
    public function streamAddress(): string
    {
        return $this->socketPath !== null ? 'unix://' . $this->socketPath : \sprintf('tcp://%s:%d', $this->host, $this->port);
    }

    /** The URL curl connects to; with a unix socket, curl ignores its host part. */
    public function curlUrl(): string
    {
        return $this->socketPath !== null ? 'http://relay/' : \sprintf('http://%s:%d/', $this->host, $this->port);
    }
}
