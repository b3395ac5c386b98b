<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use Symfony\Component\HttpClient\CurlHttpClient;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * Symfony HttpClient's CurlHttpClient with its defaults (HTTP/2 over TLS, 6 connections per
 * host), one request at a time or all started before the first is read.
 *
 * @internal bench tooling
 */
final class Symfony implements Scenario
{
    private function __construct(private readonly bool $parallel) {}

    public static function sequential(): self
    {
        return new self(false);
    }

    public static function parallel(): self
    {
        return new self(true);
    }

    public function name(): string
    {
        return $this->parallel ? 'symfony-parallel' : 'symfony';
    }

    public function label(): string
    {
        return $this->parallel ? 'Symfony HttpClient: all requests, then read' : 'Symfony HttpClient (CurlHttpClient)';
    }

    public function unavailableReason(): ?string
    {
        return Peers::symfonyMissing();
    }

    public function open(Tls $tls): \Closure
    {
        $client = new CurlHttpClient(Peers::symfonyOptions($tls));

        return function (string ...$urls) use ($client): void {
            if (!$this->parallel) {
                foreach ($urls as $url) {
                    $this->check($client->request('GET', $url), $url);
                }

                return;
            }
            $responses = array_map(static fn(string $url) => $client->request('GET', $url), $urls);
            foreach ($responses as $i => $response) {
                $this->check($response, $urls[$i]);
            }
        };
    }

    private function check(\Symfony\Contracts\HttpClient\ResponseInterface $response, string $url): void
    {
        $status = $response->getStatusCode();
        $response->getContent(false);
        if ($status !== 200) {
            throw BenchException::badResponse($this->name(), $url, $status);
        }
    }
}
