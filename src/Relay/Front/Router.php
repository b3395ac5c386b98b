<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Log\LoggerInterface;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Metrics;
use WarmHttp\Relay\MetricsFile;
use WarmHttp\Relay\Outbound\Upstream;
use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Relay\Wire\BadWireRequest;
use WarmHttp\Relay\Wire\HeaderFilter;
use WarmHttp\Relay\Wire\RequestHead;
use WarmHttp\Relay\Wire\Target;
use WarmHttp\Relay\Wire\WireRequest;
use WarmHttp\Relay\Wire\WireResponse;

/**
 * Decides what each request on the relay socket gets: journaled (async), forwarded (sync), a
 * local endpoint (GET /metrics, GET /healthz), or an error naming what was wrong. Async requests
 * of one loop iteration are appended to the journal together, and only then acknowledged; the
 * delivery worker takes them from there.
 *
 * On the TCP listener every request, the local endpoints included, needs the token; a wrong
 * one closes the connection and counts toward the TokenThrottle. On the unix socket, the
 * socket file's mode is the authentication.
 *
 * @internal
 */
final class Router
{
    /** @var list<array{CallerConnection, SpooledRequest}> */
    private array $arrivals = [];

    private readonly TokenThrottle $throttle;

    private readonly ForwardWaiters $waiters;

    /** @param \Closure(): array<string, int|float> $gauges */
    public function __construct(
        private readonly RelayConfig $config,
        private readonly JournalWriter $journal,
        private readonly Upstream $upstream,
        private readonly SyncForwarder $sync,
        private readonly Metrics $metrics,
        private readonly LoggerInterface $logger,
        private readonly \Closure $gauges,
    ) {
        $this->throttle = new TokenThrottle();
        $this->waiters = new ForwardWaiters();
        if ($config->ackRedis) {
            // Shown from the start: a scrape tells the two apart before the first timeout.
            $metrics->add('acks_redis_total', 0);
            $metrics->add('acks_local_total', 0);
        }
    }

    public function hasArrivals(): bool
    {
        return $this->arrivals !== [];
    }

    public function idle(): bool
    {
        return $this->arrivals === [] && $this->waiters->count() === 0;
    }

    /** With --ack=redis: callers waiting for the forwarder. */
    public function waitingForRedis(): int
    {
        return $this->waiters->count();
    }

    /** The worker's forwarder has put the journal into Redis up to $position: their 202s. */
    public function forwarded(JournalPosition $position): void
    {
        $done = $this->waiters->forwarded($position);
        $this->metrics->add('acks_redis_total', \count($done));
        foreach ($done as [$connection, $id, $key]) {
            $this->answer($connection, self::acceptedWith($id, $key, 'redis'));
        }
    }

    /**
     * Redis did not take them within --ack-timeout: they are in the local journal, as with
     * --ack=journal, and forwarded once Redis answers. The caller is told which it got.
     */
    public function expireWaiters(float $now): void
    {
        $done = $this->waiters->expired($now);
        if ($done === []) {
            return;
        }
        $this->metrics->add('acks_local_total', \count($done));
        $this->logger->warning('Redis did not take these requests within --ack-timeout; acknowledged from the local journal (X-WarmHttp-Durability: journal), forwarded once Redis answers', ['requests' => \count($done), 'ack_timeout_s' => $this->config->ackTimeout, 'forwarded_to' => ($p = $this->waiters->lastForwarded()) === null ? null : $p->segment . ':' . $p->offset]);
        foreach ($done as [$connection, $id, $key]) {
            $this->answer($connection, self::acceptedWith($id, $key, 'journal'));
        }
    }

    /** Takes and routes every complete request the connection has buffered, in order. */
    public function serve(CallerConnection $connection): void
    {
        while (!$connection->busy && !$connection->closing) {
            try {
                $wire = $connection->takeRequest($this->config->maxBodyBytes);
            } catch (BadWireRequest $e) {
                $this->refuseMalformed($connection, $e);

                return;
            }
            if ($wire === null) {
                return;
            }
            if (!$wire->keepAlive()) {
                $connection->closing = true;
            }
            $this->route($connection, $wire);
        }
    }

    /**
     * Group commit: one journal append for everything that arrived this round, then the 202s;
     * with --ack=redis the callers wait for the forwarder instead (ForwardWaiters).
     *
     * @return int callers now waiting for the forwarder (the worker is to be woken)
     */
    public function commit(float $now = 0.0): int
    {
        if ($this->arrivals === []) {
            return 0;
        }
        $batch = $this->arrivals;
        $this->arrivals = [];
        try {
            $ids = $this->journal->append(array_column($batch, 1));
        } catch (SpoolUnavailable $e) {
            $this->refuseBatch($batch, $e);

            return 0;
        }
        $this->metrics->add('spool_commits_total');
        $this->metrics->add('accepted_total', \count($ids));
        if ($this->config->ackRedis) {
            foreach ($ids as $i => $id) {
                $this->waiters->park($batch[$i][0], $id, $batch[$i][1]->idempotencyKey, $now + $this->config->ackTimeout);
            }

            return \count($ids);
        }
        foreach ($ids as $i => $id) {
            $this->answer($batch[$i][0], WireResponse::accepted($id, $batch[$i][1]->idempotencyKey));
        }

        return 0;
    }

    /** The 202 of --ack=redis: which durability this request got (redis, or journal after the timeout). */
    private static function acceptedWith(string $id, string $key, string $durability): string
    {
        return "HTTP/1.1 202 Accepted\r\nX-WarmHttp-Id: {$id}\r\nIdempotency-Key: {$key}\r\nX-WarmHttp-Durability: {$durability}\r\nContent-Length: 0\r\n\r\n";
    }

    /** @param list<array{CallerConnection, SpooledRequest}> $batch */
    private function refuseBatch(array $batch, SpoolUnavailable $e): void
    {
        $this->metrics->add('spool_failures_total');
        $this->logger->error('Could not spool; callers were told to fall back (507)', ['error' => $e->getMessage(), 'requests' => \count($batch)]);
        foreach ($batch as [$connection]) {
            $this->answer($connection, WireResponse::relayError(507, $e->getMessage()));
        }
    }

    /**
     * A request the parser refused. A size refusal whose target names a refused destination is
     * answered 403 instead: the app falls back to sending a 413 or 431 itself, never a 403.
     */
    private function refuseMalformed(CallerConnection $connection, BadWireRequest $e): void
    {
        $status = $e->status;
        $message = $e->getMessage();
        if (($status === 413 || $status === 431) && $e->target !== null && $this->isGuarded($e->head) && $this->destinationMayBeTold($connection, $e->head)) {
            $refusal = $this->refusal($e->target);
            [$status, $message] = $refusal === null ? [$status, $message] : [403, $refusal];
        }
        if (!$connection->closing) {
            $this->reject($connection, $status, $message, true);
        }
    }

    /**
     * Whether the destination guard applies to a request: every async one; a sync one when its
     * caller asks (X-WarmHttp-Guard: on, the Client's relay_sync_guard) or the relay runs with
     * --guard-sync. Sync mode is otherwise the app's own transport, with its Client's policy.
     */
    private function isGuarded(RequestHead|WireRequest|null $request): bool
    {
        $mode = $request instanceof WireRequest ? $request->mode : strtolower(trim($request?->header('X-WarmHttp-Mode') ?? 'async'));
        if ($request === null || $mode !== 'sync') {
            return true;
        }

        return $this->config->guardSync || ($request->index['x-warmhttp-guard'] ?? null) === 'on';
    }

    /** Only to a caller who may ask: on the TCP listener, one whose head carried the token. */
    private function destinationMayBeTold(CallerConnection $connection, ?RequestHead $head): bool
    {
        if (!$connection->needsToken) {
            return true;
        }

        return $head !== null && $this->authorized($connection, $head->header('X-WarmHttp-Token'));
    }

    /** The destination guard's refusal of $target, if it refuses it. */
    private function refusal(string $target): ?string
    {
        try {
            $this->upstream->checkDestination(Target::parse($target));
        } catch (RefusedDestination $e) {
            return $e->getMessage();
        } catch (UnresolvableHost|\InvalidArgumentException) {
            return null;
        }

        return null;
    }

    /** The token check of the TCP listener; a failure has already been answered and closes. */
    private function authorized(CallerConnection $connection, ?string $token): bool
    {
        if (!$connection->needsToken) {
            return true;
        }
        $now = hrtime(true) / 1e9;
        if ($this->throttle->isBlocked($now)) {
            // Not logged one by one: a guesser must not fill the disk either.
            $retryAfter = $this->throttle->retryAfter($now);
            $this->metrics->add('rejected_total');
            $connection->discardInput();
            $connection->send(WireResponse::relayError(429, \sprintf('Too many wrong X-WarmHttp-Token values on the TCP listener: tokens are not checked for %d s.', $retryAfter), true, [['Retry-After', (string) $retryAfter]]));

            return false;
        }
        if (!hash_equals((string) $this->config->token, $token ?? '')) {
            if ($this->throttle->failed($now)) {
                $this->logger->warning('Wrong tokens on the TCP listener: token checks blocked', ['failures' => TokenThrottle::MAX_FAILURES, 'within_s' => TokenThrottle::WINDOW_SECONDS, 'blocked_s' => TokenThrottle::BLOCK_SECONDS]);
            }
            $this->reject($connection, 401, 'Missing or wrong X-WarmHttp-Token: the TCP listener requires the relay token.', true);

            return false;
        }

        return true;
    }

    private function route(CallerConnection $connection, WireRequest $wire): void
    {
        if ($connection->needsToken && !$this->authorized($connection, $wire->index['x-warmhttp-token'] ?? null)) {
            return;
        }
        if ($wire->method === 'CONNECT') {
            $this->reject($connection, 405, 'CONNECT is not supported: send the request itself with an absolute-form target (POST https://host/path HTTP/1.1), so the relay can pool the upstream connection.', true);

            return;
        }
        match (true) {
            !$wire->isAbsoluteForm() => $this->local($connection, $wire),
            $wire->mode === 'async' => $this->enqueue($connection, $wire),
            $wire->mode === 'sync' => $this->forward($connection, $wire),
            default => $this->reject($connection, 400, \sprintf('Unknown X-WarmHttp-Mode "%s": use async or sync.', $wire->mode), false),
        };
    }

    private function enqueue(CallerConnection $connection, WireRequest $wire): void
    {
        try {
            $this->upstream->checkDestination(Target::parse($wire->target));
        } catch (RefusedDestination $e) {
            $this->reject($connection, 403, $e->getMessage(), false);

            return;
        } catch (UnresolvableHost) {
            // DNS may recover: spool it and let delivery retry.
        } catch (\InvalidArgumentException $e) {
            $this->reject($connection, 400, $e->getMessage(), false);

            return;
        }
        $key = $wire->header('Idempotency-Key');
        $headers = HeaderFilter::forUpstream($wire->headers, ['idempotency-key' => true]);
        $connection->busy = true;
        $this->arrivals[] = [$connection, new SpooledRequest(
            0,
            $wire->method,
            $wire->target,
            $headers,
            $wire->body,
            $key !== null && $key !== '' ? $key : bin2hex(random_bytes(16)),
            0,
            microtime(true),
        )];
    }

    private function forward(CallerConnection $connection, WireRequest $wire): void
    {
        $connection->busy = true;
        $this->sync->forward($wire, $connection, $this->isGuarded($wire), fn() => $this->resume($connection));
    }

    private function local(CallerConnection $connection, WireRequest $wire): void
    {
        $path = (string) parse_url($wire->target, \PHP_URL_PATH);
        match (true) {
            $wire->method === 'GET' && $path === '/metrics' => $connection->send(WireResponse::render(200, $this->metrics->render(($this->gauges)(), MetricsFile::counters(MetricsFile::pathFor($this->config->spoolPath))), [['Content-Type', 'text/plain; version=0.0.4']])),
            $wire->method === 'GET' && $path === '/healthz' => $connection->send(WireResponse::render(200, "ok\n")),
            default => $this->reject($connection, 400, \sprintf('"%s %s": the relay forwards absolute-form targets only (POST https://host/path HTTP/1.1); its own endpoints are GET /metrics and GET /healthz.', $wire->method, substr($wire->target, 0, 100)), false),
        };
    }

    private function reject(CallerConnection $connection, int $status, string $message, bool $close): void
    {
        $this->metrics->add('rejected_total');
        $this->logger->notice('Request refused', ['status' => $status, 'error' => $message]);
        if ($close) {
            $connection->discardInput();
        }
        $connection->send(WireResponse::relayError($status, $message, $close));
    }

    private function answer(CallerConnection $connection, string $bytes): void
    {
        $connection->send($bytes);
        $this->resume($connection);
    }

    /** The connection's current request is answered: on to the next one it has buffered. */
    private function resume(CallerConnection $connection): void
    {
        $connection->busy = false;
        $this->serve($connection);
    }
}
