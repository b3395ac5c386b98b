<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Support;

use Psr\Http\Client\ClientInterface;
use WarmHttp\Client;

/** Stands for any SDK that takes a PSR-18 client and calls it synchronously. */
final class FakeSdk
{
    public function __construct(private readonly ClientInterface&Client $http, private readonly string $base) {}

    /** @return array{string, string} */
    public function fetchTwo(string $id): array
    {
        $first = (string) $this->http->sendRequest($this->http->createRequest('GET', "$this->base/$id/1"))->getBody();
        $second = (string) $this->http->sendRequest($this->http->createRequest('GET', "$this->base/$id/2"))->getBody();

        return [$first, $second];
    }
}
