<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

/**
 * A request's `progress` callback, as the Client calls it. When it throws, Guzzle's curl
 * handlers let the exception out of the wait that drove the transfer; the pool instead stops
 * the transfer (ReadTimeout's watch catches it: the pool's other transfers go on), and the
 * request is rejected with the callback's own exception (Outcome::settle).
 *
 * @internal
 */
final class ProgressCallback
{
    public ?\Throwable $failure = null;

    /** @var \Closure(int, int, int, int): mixed */
    private readonly \Closure $progress;

    /** @param callable(int, int, int, int): mixed $progress */
    public function __construct(callable $progress)
    {
        $this->progress = $progress(...);
    }

    /** @throws \Throwable the callback's, after keeping it */
    public function __invoke(int $downloadTotal, int $downloaded, int $uploadTotal, int $uploaded): void
    {
        try {
            ($this->progress)($downloadTotal, $downloaded, $uploadTotal, $uploaded);
        } catch (\Throwable $e) {
            $this->failure ??= $e;

            throw $e;
        }
    }

    /** @param array<string, mixed> $options */
    public static function failureOf(array $options): ?\Throwable
    {
        $progress = $options['progress'] ?? null;

        return $progress instanceof self ? $progress->failure : null;
    }
}
