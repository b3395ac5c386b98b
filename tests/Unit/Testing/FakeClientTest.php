<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Testing;

use PHPUnit\Framework\AssertionFailedError;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

use function WarmHttp\concurrently;

use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\HttpClient;
use WarmHttp\Testing\FakeClient;

/**
 * FakeClient used the way a user's test uses it: the code under test is typed against
 * HttpClient and never knows it is talking to a fake.
 */
final class FakeClientTest extends TestCase
{
    public function testQueuedAnswersAreGivenInOrderAndRequestsRecorded(): void
    {
        $fake = new FakeClient(FakeClient::response(200, [], '{"id":7}'), FakeClient::response(404));

        $first = $fake->sendRequest($fake->createRequest('GET', 'https://api.example.test/users/7'));
        $second = $fake->sendRequest($fake->createRequest('DELETE', 'https://api.example.test/users/8'));

        self::assertSame('{"id":7}', (string) $first->getBody());
        self::assertSame(404, $second->getStatusCode());
        self::assertSame('/users/8', $fake->lastRequest()->getUri()->getPath());
        $fake->assertSentCount(2);
        $fake->assertSent(static fn(RequestInterface $r): bool => $r->getMethod() === 'DELETE', times: 1);
        $fake->assertQueueEmpty();
    }

    public function testAQueuedExceptionIsThrownLikeTheClientWould(): void
    {
        $fake = new FakeClient(static fn(RequestInterface $r): ClientExceptionInterface => new TimeoutException($r, 'GET https://api.example.test/ failed: timed out.'));
        $service = new UserDirectory($fake);

        self::assertNull($service->find(1), 'the service treats a network failure as "unknown"');
        self::assertInstanceOf(NetworkException::class, $service->lastError);
    }

    public function testAClosureBuildsTheAnswerFromTheRequest(): void
    {
        $fake = (new FakeClient())->respondWith(static fn(RequestInterface $r): ResponseInterface => FakeClient::response(200, [], 'you asked for ' . $r->getUri()->getPath()));

        self::assertSame('you asked for /a', (string) $fake->sendRequest($fake->createRequest('GET', 'http://x.test/a'))->getBody());
        self::assertSame('you asked for /b', (string) $fake->sendRequest($fake->createRequest('GET', 'http://x.test/b'))->getBody());
        self::assertSame(0, $fake->remaining());
    }

    public function testAnEmptyQueueWithoutFallbackSaysWhatToDo(): void
    {
        $fake = new FakeClient();

        $this->expectException(\LogicException::class);
        $this->expectExceptionMessage('FakeClient: no answer for GET http://x.test/none (request 1); queue one with queue()');
        $fake->sendRequest($fake->createRequest('GET', 'http://x.test/none'));
    }

    public function testSendAsyncGivesASettledPendingResponse(): void
    {
        $fake = new FakeClient(FakeClient::response(201), new NetworkException($this->request('/x'), 'refused'));

        $ok = $fake->sendAsync($this->request('/a'));
        $failed = $fake->sendAsync($this->request('/b'));
        $seen = null;
        $failed->onSettle(static function (ResponseInterface|ClientExceptionInterface $outcome) use (&$seen): void {
            $seen = $outcome;
        });

        self::assertTrue($ok->isSettled());
        self::assertSame(201, $ok->wait()->getStatusCode());
        self::assertInstanceOf(NetworkException::class, $seen);
        $this->expectException(NetworkException::class);
        $failed->wait();
    }

    public function testSendAllKeepsKeysOrderAndProgressLikeTheClient(): void
    {
        $fake = new FakeClient(FakeClient::response(200, [], 'one'), new NetworkException($this->request('/2'), 'refused'), FakeClient::response(200, [], 'three'));
        $progress = [];

        $results = $fake->sendAll(
            ['a' => $this->request('/1'), 'b' => $this->request('/2'), 'c' => $this->request('/3')],
            2,
            static function (int|string $key, ResponseInterface|ClientExceptionInterface $outcome, int $done) use (&$progress): void {
                $progress[] = "$key:$done";
            },
        );

        self::assertSame(['a', 'b', 'c'], array_keys($results));
        self::assertInstanceOf(ResponseInterface::class, $results['a']);
        self::assertInstanceOf(NetworkException::class, $results['b']);
        self::assertSame(['a:1', 'b:2', 'c:3'], $progress);
    }

    public function testWorksInsideConcurrentlyTasks(): void
    {
        $fake = (new FakeClient())->respondWith(static fn(RequestInterface $r): ResponseInterface => FakeClient::response(200, [], $r->getUri()->getPath()));
        $directory = new UserDirectory($fake);

        $names = concurrently(
            static fn(): ?string => $directory->find(1),
            static fn(): ?string => $directory->find(2),
        );

        self::assertSame(['/users/1', '/users/2'], $names);
        $fake->assertSent(static fn(RequestInterface $r): bool => str_starts_with($r->getUri()->getPath(), '/users/'), times: 2);
    }

    public function testDispatchIsRecordedApartAndNeverAnswered(): void
    {
        $fake = new FakeClient();
        $directory = new UserDirectory($fake);

        $directory->forget(9);

        $fake->assertDispatched(static fn(RequestInterface $r): bool => $r->getMethod() === 'DELETE' && $r->getUri()->getPath() === '/users/9');
        $fake->assertSentCount(0);
        self::assertCount(1, $fake->dispatched());
    }

    public function testAFailedAssertionIsATestFailureNamingWhatWasSent(): void
    {
        $fake = new FakeClient(FakeClient::response());
        $fake->sendRequest($this->request('/only'));

        try {
            $fake->assertSent(static fn(RequestInterface $r): bool => $r->getMethod() === 'POST');
            self::fail('the assertion should have failed');
        } catch (AssertionFailedError $e) {
            self::assertStringContainsString('Expected at least one matching request sent, found 0 among: GET http://x.test/only', $e->getMessage());
        }
    }

    public function testAssertNothingSentSeesDispatchesToo(): void
    {
        $fake = new FakeClient();
        $fake->dispatch($this->request('/hook'));

        $this->expectException(AssertionFailedError::class);
        $fake->assertNothingSent();
    }

    private function request(string $path): RequestInterface
    {
        return (new FakeClient())->createRequest('GET', 'http://x.test' . $path);
    }
}
