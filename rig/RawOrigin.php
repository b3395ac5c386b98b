<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * A programmable plain-HTTP/1.1 origin (rig/bin/rig-origin.php) for what nginx cannot do: dead
 * keep-alive reuse, truncated and reset bodies, malformed heads, stalls. Paths:
 * /ok[?then=die|rst], /echo, /close, /arm-dead-reuse[?how=fin|rst], /reset-mid-body,
 * /truncated, /malformed-status, /garbage, /bad-header, /stall, /slow-headers?ms=N; else 404.
 *
 * @internal test/bench tooling
 *
 * @phpstan-type Stats array{connections: int, requests: int, paths: array<string, int>, methods: array<string, int>, deadReuseClosed: int, arms: int}
 */
final class RawOrigin
{
    private function __construct(private readonly ChildProcess $child) {}

    public static function start(): self
    {
        return new self(ChildProcess::start('rig-origin.php', [], 'The raw origin (rig/bin/rig-origin.php)'));
    }

    public function port(): int
    {
        return $this->child->port();
    }

    public function url(string $path = '/ok'): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port(), ltrim($path, '/'));
    }

    /**
     * Counters as of the last event the origin handled: connections accepted, requests received
     * (by path, and by "METHOD path"), requests answered by closing a doomed connection.
     *
     * @return Stats
     */
    public function stats(): array
    {
        $raw = $this->child->stats();
        $int = static fn(string $key): int => \is_int($raw[$key] ?? null) ? $raw[$key] : 0;

        return [
            'connections' => $int('connections'),
            'requests' => $int('requests'),
            'paths' => self::counts($raw['paths'] ?? []),
            'methods' => self::counts($raw['methods'] ?? []),
            'deadReuseClosed' => $int('deadReuseClosed'),
            'arms' => $int('arms'),
        ];
    }

    /**
     * Dooms every connection open right now: its next request is read, then the socket closed
     * without a response (FIN, or RST with $how = 'rst'). Later connections are served normally.
     * Done by signal, so arming neither counts as a request nor opens a connection.
     *
     * @param 'fin'|'rst' $how
     */
    public function armDeadReuse(string $how = 'fin'): void
    {
        $before = $this->stats()['arms'];
        $this->child->signal($how === 'rst' ? \SIGUSR2 : \SIGUSR1);
        $deadline = microtime(true) + 5.0;
        while ($this->stats()['arms'] === $before) {
            if (microtime(true) > $deadline) {
                throw new RigException('The raw origin did not acknowledge armDeadReuse() within 5 s.');
            }
            usleep(1_000);
        }
    }

    public function stop(): void
    {
        $this->child->stop();
    }

    /**
     * @return array<string, int>
     */
    private static function counts(mixed $raw): array
    {
        $counts = [];
        foreach (\is_array($raw) ? $raw : [] as $key => $value) {
            $counts[(string) $key] = \is_int($value) ? $value : 0;
        }

        return $counts;
    }
}
