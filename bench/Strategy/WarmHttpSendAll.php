<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;
use WarmHttp\Client;

/**
 * WarmHttp's sendAll(), every request in flight at once, over HTTP/2 or over HTTP/1.1 with a
 * per-host connection cap.
 *
 * @internal bench tooling
 */
final class WarmHttpSendAll implements Scenario
{
    private function __construct(private readonly string $httpVersion, private readonly int $hostCap) {}

    public static function h2(): self
    {
        // The cap is pool-wide and sticks once set (max_host_connections takes no "unset"), so
        // after the HTTP/1.1 rows it would be whatever they left; pin it. HTTP/2 multiplexes
        // on one connection anyway.
        return new self('2', 100);
    }

    public static function h1(int $hostCap): self
    {
        return new self('1.1', $hostCap);
    }

    public function name(): string
    {
        return $this->httpVersion === '2' ? 'warmhttp-sendall-h2' : 'warmhttp-sendall-h1-cap' . $this->hostCap;
    }

    public function label(): string
    {
        return $this->httpVersion === '2' ? 'WarmHttp sendAll(), HTTP/2' : \sprintf('WarmHttp sendAll(), HTTP/1.1, %d per host', $this->hostCap);
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $client = new Client(['http_version' => $this->httpVersion, 'max_host_connections' => $this->hostCap] + WarmHttpOptions::for($tls));

        return function (string ...$urls) use ($client): void {
            $requests = array_map(static fn(string $url) => $client->createRequest('GET', $url), $urls);
            foreach ($client->sendAll($requests, max(1, \count($requests))) as $i => $outcome) {
                WarmHttpOptions::check($outcome, $this->name(), $urls[$i]);
            }
        };
    }
}
