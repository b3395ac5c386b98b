<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;
use WarmHttp\Client;

use function WarmHttp\concurrently;

/**
 * concurrently(): tasks written as plain sequential code (like an SDK call making a few
 * requests in a row), run side by side in fibers.
 *
 * @internal bench tooling
 */
final class WarmHttpConcurrently implements Scenario
{
    /** @param positive-int $requestsPerTask */
    public function __construct(private readonly int $requestsPerTask) {}

    public function name(): string
    {
        return 'warmhttp-concurrently';
    }

    public function label(): string
    {
        return \sprintf('WarmHttp concurrently(), tasks of %d sequential requests', $this->requestsPerTask);
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $client = new Client(WarmHttpOptions::for($tls));

        return function (string ...$urls) use ($client): void {
            $tasks = [];
            foreach (array_chunk($urls, $this->requestsPerTask) as $chunk) {
                $tasks[] = function () use ($client, $chunk): void {
                    foreach ($chunk as $url) {
                        WarmHttpOptions::check($client->sendRequest($client->createRequest('GET', $url)), $this->name(), $url);
                    }
                };
            }
            concurrently(...$tasks);
        };
    }
}
