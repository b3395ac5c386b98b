<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use GuzzleHttp\Client;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * Guzzle 7 with its defaults (HTTP/1.1, curl handler), either one Client for every request or
 * a new Client per request, which is what Laravel's Http facade does.
 *
 * @internal bench tooling
 */
final class Guzzle implements Scenario
{
    private function __construct(private readonly bool $clientPerRequest) {}

    public static function oneClient(): self
    {
        return new self(false);
    }

    public static function clientPerRequest(): self
    {
        return new self(true);
    }

    public function name(): string
    {
        return $this->clientPerRequest ? 'guzzle-client-per-request' : 'guzzle-one-client';
    }

    public function label(): string
    {
        return $this->clientPerRequest ? 'Guzzle: new Client per request (Laravel Http)' : 'Guzzle: one Client';
    }

    public function unavailableReason(): ?string
    {
        return Peers::guzzleMissing();
    }

    public function open(Tls $tls): \Closure
    {
        $options = Peers::guzzleOptions($tls);
        $shared = $this->clientPerRequest ? null : new Client($options);

        return function (string ...$urls) use ($shared, $options): void {
            foreach ($urls as $url) {
                $status = ($shared ?? new Client($options))->get($url)->getStatusCode();
                if ($status !== 200) {
                    throw BenchException::badResponse($this->name(), $url, $status);
                }
            }
        };
    }
}
