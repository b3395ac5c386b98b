<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use GuzzleHttp\Client;
use GuzzleHttp\Promise\Utils;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * Guzzle's parallel way: getAsync() for every URL, then wait for all (defaults: HTTP/1.1,
 * no per-host cap, so one connection per request).
 *
 * @internal bench tooling
 */
final class GuzzleConcurrent implements Scenario
{
    public function name(): string
    {
        return 'guzzle-async';
    }

    public function label(): string
    {
        return 'Guzzle: getAsync() all, one Client (HTTP/1.1 default)';
    }

    public function unavailableReason(): ?string
    {
        return Peers::guzzleMissing();
    }

    public function open(Tls $tls): \Closure
    {
        $client = new Client(Peers::guzzleOptions($tls));

        return function (string ...$urls) use ($client): void {
            $promises = array_map(static fn(string $url) => $client->getAsync($url), $urls);
            foreach (Utils::unwrap($promises) as $i => $response) {
                \assert($response instanceof ResponseInterface);
                if ($response->getStatusCode() !== 200) {
                    throw BenchException::badResponse($this->name(), $urls[$i], $response->getStatusCode());
                }
            }
        };
    }
}
