<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Worker;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\Outbound\UpstreamFailure;
use WarmHttp\Relay\Storage\SpooledRequest;

/**
 * What one delivery attempt's outcome means: delivered, try again later, or give up.
 * Backoff is exponential with full jitter (AWS Architecture Blog, "Exponential Backoff And
 * Jitter"): spreads retries of a burst that failed together, so a recovering origin is not hit
 * by all of them at once.
 *
 * @internal
 */
final readonly class RetryPolicy
{
    public function __construct(
        public float $baseSeconds = 1.0,
        public float $capSeconds = 300.0,
        public float $maxAgeSeconds = 86400.0,
        public int $maxAttempts = 0,
    ) {}

    /** @param ResponseInterface|ClientExceptionInterface $outcome the attempt's response, or why it failed */
    public function decide(SpooledRequest $request, int $attempts, ResponseInterface|ClientExceptionInterface $outcome, float $now): Decision
    {
        if ($outcome instanceof ResponseInterface) {
            return $this->afterResponse($request, $attempts, $outcome, $now);
        }
        $kind = $outcome instanceof UpstreamFailure ? $outcome->kind : FailureKind::Network;

        return match ($kind) {
            FailureKind::TooLarge => Decision::delivered('the response was larger than the relay reads; the request was received'),
            FailureKind::Request => Decision::dead($outcome->getMessage()),
            FailureKind::Network, FailureKind::Timeout => $this->later($request, $attempts, $outcome->getMessage(), $now),
        };
    }

    public function later(SpooledRequest $request, int $attempts, string $reason, float $now, ?float $retryAfter = null): Decision
    {
        $at = $now + ($retryAfter ?? $this->backoff($attempts));
        if ($this->maxAttempts > 0 && $attempts >= $this->maxAttempts) {
            return Decision::dead(\sprintf('%s; gave up after %d attempts', $reason, $attempts));
        }
        if ($at - $request->createdAt > $this->maxAgeSeconds) {
            return Decision::dead(\sprintf('%s; gave up after %d attempts: the next one would pass the maximum age of %ss', $reason, $attempts, $this->maxAgeSeconds));
        }

        return Decision::retryAt($at, $reason);
    }

    public function backoff(int $attempts): float
    {
        $ceiling = min($this->capSeconds, $this->baseSeconds * 2 ** min(max($attempts - 1, 0), 30));

        return $ceiling * random_int(0, 1_000_000) / 1_000_000;
    }

    private function afterResponse(SpooledRequest $request, int $attempts, ResponseInterface $response, float $now): Decision
    {
        $status = $response->getStatusCode();
        if ($status < 400) {
            return Decision::delivered();
        }
        if ($status !== 429 && $status !== 408 && $status < 500) {
            return Decision::dead(\sprintf('HTTP %d: a client error is not retried', $status));
        }

        return $this->later($request, $attempts, \sprintf('HTTP %d', $status), $now, self::retryAfter($response, $now));
    }

    /** Retry-After as seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable. */
    private static function retryAfter(ResponseInterface $response, float $now): ?float
    {
        $value = trim($response->getHeaderLine('Retry-After'));
        if ($value === '') {
            return null;
        }
        if (ctype_digit($value)) {
            return (float) $value;
        }
        $time = strtotime($value);

        return $time === false ? null : max(0.0, $time - $now);
    }
}
