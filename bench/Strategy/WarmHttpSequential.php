<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;
use WarmHttp\Client;

/**
 * WarmHttp's sendRequest() one at a time, from one Client or round-robin across several:
 * every instance shares the process-wide pool, so several clients cost no extra connections.
 *
 * @internal bench tooling
 */
final class WarmHttpSequential implements Scenario
{
    public function __construct(private readonly int $clients = 1) {}

    public function name(): string
    {
        return $this->clients === 1 ? 'warmhttp' : \sprintf('warmhttp-%d-clients', $this->clients);
    }

    public function label(): string
    {
        return $this->clients === 1 ? 'WarmHttp Client, sendRequest()' : \sprintf('WarmHttp across %d Client instances', $this->clients);
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $clients = [];
        for ($i = 0; $i < $this->clients; ++$i) {
            $clients[] = new Client(WarmHttpOptions::for($tls));
        }

        return function (string ...$urls) use ($clients): void {
            foreach (array_values($urls) as $i => $url) {
                $client = $clients[$i % \count($clients)];
                WarmHttpOptions::check($client->sendRequest($client->createRequest('GET', $url)), $this->name(), $url);
            }
        };
    }
}
