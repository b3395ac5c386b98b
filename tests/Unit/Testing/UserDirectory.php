<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Testing;

use Psr\Http\Client\ClientExceptionInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\HttpClient;

/** What a user's code looks like: typed against the interface. */
final class UserDirectory
{
    public ?ClientExceptionInterface $lastError = null;

    public function __construct(private readonly HttpClient $http) {}

    public function find(int $id): ?string
    {
        try {
            $response = $this->http->sendRequest(new \Nyholm\Psr7\Request('GET', "https://api.example.test/users/$id"));
        } catch (NetworkException $e) {
            $this->lastError = $e;

            return null;
        }

        return (string) $response->getBody();
    }

    public function forget(int $id): void
    {
        $this->http->dispatch(new \Nyholm\Psr7\Request('DELETE', "https://api.example.test/users/$id"));
    }
}
