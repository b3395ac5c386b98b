<?php

declare(strict_types=1);

namespace WarmHttp\Testing;

use Nyholm\Psr7\Factory\Psr17Factory;
use Nyholm\Psr7\Request;
use Nyholm\Psr7\Response;
use PHPUnit\Framework\Assert;
use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\HttpClient;
use WarmHttp\Internal\Batch;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\SettledTransfer;
use WarmHttp\Internal\Transfer;
use WarmHttp\PendingResponse;

/**
 * A test double for code typed against `WarmHttp\HttpClient` (or plain PSR-18): nothing goes
 * on the network. Queue answers (responses, exceptions to throw, or closures that build either
 * from the request) and they are given in order; once the queue is empty the fallback set with
 * respondWith() answers. Every request is recorded, dispatch()es apart, for the assert*() helpers.
 *
 * Answers are given at once, also to sendAsync() (its PendingResponse is settled), so code in
 * `concurrently()` tasks and sendAll() runs as with a Client, in a deterministic order.
 *
 * @phpstan-type Answer ResponseInterface|ClientExceptionInterface|\Closure(RequestInterface): (ResponseInterface|ClientExceptionInterface)
 */
final class FakeClient implements HttpClient, RequestFactoryInterface, StreamFactoryInterface
{
    /** @var list<Answer> */
    private array $queue = [];

    /** @var null|\Closure(RequestInterface): (ResponseInterface|ClientExceptionInterface) */
    private ?\Closure $fallback = null;

    /** @var list<RequestInterface> */
    private array $sent = [];

    /** @var list<RequestInterface> */
    private array $dispatched = [];

    /** @param ResponseInterface|ClientExceptionInterface|\Closure(RequestInterface): (ResponseInterface|ClientExceptionInterface) ...$answers */
    public function __construct(ResponseInterface|ClientExceptionInterface|\Closure ...$answers)
    {
        $this->queue(...$answers);
    }

    /**
     * A response to queue: `FakeClient::response(404, ['Content-Type' => 'application/json'], '{}')`.
     *
     * @param array<string, string|list<string>> $headers
     */
    public static function response(int $status = 200, array $headers = [], string $body = ''): ResponseInterface
    {
        return new Response($status, $headers, new MemoryStream($body));
    }

    /**
     * Appends answers, given in order, one per request sent.
     *
     * @param ResponseInterface|ClientExceptionInterface|\Closure(RequestInterface): (ResponseInterface|ClientExceptionInterface) ...$answers
     */
    public function queue(ResponseInterface|ClientExceptionInterface|\Closure ...$answers): self
    {
        foreach ($answers as $answer) {
            $this->queue[] = $answer;
        }

        return $this;
    }

    /**
     * Answers every request once the queue is empty (without one, an empty queue is an error).
     *
     * @param callable(RequestInterface): (ResponseInterface|ClientExceptionInterface) $answer
     */
    public function respondWith(callable $answer): self
    {
        $this->fallback = $answer(...);

        return $this;
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        $answer = $this->answer($request);
        if ($answer instanceof ClientExceptionInterface) {
            throw $answer;
        }

        return $answer;
    }

    public function sendAsync(RequestInterface $request): PendingResponse
    {
        return new PendingResponse($this->transfer($request));
    }

    /**
     * Like Client::sendAll(): same keys, order, progress calls and input checks.
     *
     * @param iterable<array-key, RequestInterface>                                     $requests
     * @param null|callable(array-key, ResponseInterface|ClientExceptionInterface, int): void $onProgress
     *
     * @return array<array-key, ResponseInterface|ClientExceptionInterface>
     */
    public function sendAll(iterable $requests, int $concurrency = 50, ?callable $onProgress = null): array
    {
        if ($concurrency < 1) {
            throw new \InvalidArgumentException(\sprintf('sendAll(): $concurrency must be at least 1, got %d.', $concurrency));
        }

        return (new Batch($this->transfer(...), $concurrency, $onProgress))->run($requests);
    }

    /** Recorded, never sent: see dispatched() and assertDispatched(). */
    public function dispatch(RequestInterface $request): void
    {
        $this->dispatched[] = $request;
    }

    public function createRequest(string $method, $uri): RequestInterface
    {
        return (new Request($method, $uri))->withBody(new MemoryStream());
    }

    public function createStream(string $content = ''): StreamInterface
    {
        return new MemoryStream($content);
    }

    public function createStreamFromFile(string $filename, string $mode = 'r'): StreamInterface
    {
        return (new Psr17Factory())->createStreamFromFile($filename, $mode);
    }

    public function createStreamFromResource($resource): StreamInterface
    {
        return (new Psr17Factory())->createStreamFromResource($resource);
    }

    /** @return list<RequestInterface> sent by sendRequest(), sendAsync() and sendAll(), in order */
    public function sent(): array
    {
        return $this->sent;
    }

    /** @return list<RequestInterface> handed to dispatch(), in order */
    public function dispatched(): array
    {
        return $this->dispatched;
    }

    public function lastRequest(): RequestInterface
    {
        return $this->sent[\count($this->sent) - 1] ?? throw new \LogicException('FakeClient::lastRequest(): nothing was sent yet.');
    }

    /** How many queued answers no request has taken yet. */
    public function remaining(): int
    {
        return \count($this->queue);
    }

    /**
     * Passes when $times requests (at least one if null) were sent that $matches accepts.
     *
     * @param callable(RequestInterface): bool $matches
     */
    public function assertSent(callable $matches, ?int $times = null): void
    {
        self::assertMatches($this->sent, $matches, $times, 'sent');
    }

    /** @param callable(RequestInterface): bool $matches */
    public function assertDispatched(callable $matches, ?int $times = null): void
    {
        self::assertMatches($this->dispatched, $matches, $times, 'dispatched');
    }

    public function assertSentCount(int $count): void
    {
        self::check(\count($this->sent) === $count, \sprintf('Expected %d request(s) sent, %d were: %s', $count, \count($this->sent), self::list($this->sent)));
    }

    public function assertNothingSent(): void
    {
        self::check($this->sent === [] && $this->dispatched === [], \sprintf('Expected nothing sent or dispatched; sent: %s; dispatched: %s', self::list($this->sent), self::list($this->dispatched)));
    }

    /** Every queued answer was used: a test that queued more than the code asked for says so. */
    public function assertQueueEmpty(): void
    {
        self::check($this->queue === [], \sprintf('%d queued answer(s) were never asked for; requests sent: %s', \count($this->queue), self::list($this->sent)));
    }

    private function transfer(RequestInterface $request): Transfer
    {
        return SettledTransfer::of($request, $this->answer($request));
    }

    private function answer(RequestInterface $request): ResponseInterface|ClientExceptionInterface
    {
        $this->sent[] = $request;
        $answer = array_shift($this->queue) ?? $this->fallback ?? throw new \LogicException(\sprintf(
            'FakeClient: no answer for %s %s (request %d); queue one with queue() or set one for all with respondWith().',
            $request->getMethod(),
            (string) $request->getUri(),
            \count($this->sent),
        ));

        return $answer instanceof \Closure ? $answer($request) : $answer;
    }

    /**
     * @param list<RequestInterface>           $requests
     * @param callable(RequestInterface): bool $matches
     */
    private static function assertMatches(array $requests, callable $matches, ?int $times, string $what): void
    {
        $count = \count(array_filter($requests, static fn(RequestInterface $r): bool => $matches($r)));
        $ok = $times === null ? $count > 0 : $count === $times;
        $expected = $times === null ? 'at least one matching request' : \sprintf('%d matching request(s)', $times);
        self::check($ok, \sprintf('Expected %s %s, found %d among: %s', $expected, $what, $count, self::list($requests)));
    }

    /** @param list<RequestInterface> $requests */
    private static function list(array $requests): string
    {
        if ($requests === []) {
            return '(none)';
        }

        return implode(', ', array_map(static fn(RequestInterface $r): string => $r->getMethod() . ' ' . $r->getUri(), $requests));
    }

    /** Under PHPUnit a failed check is a test failure (and a passed one counts as an assertion). */
    private static function check(bool $ok, string $message): void
    {
        if (class_exists(Assert::class)) {
            Assert::assertTrue($ok, $message);

            return;
        }
        if (!$ok) {
            throw new \AssertionError($message);
        }
    }
}
