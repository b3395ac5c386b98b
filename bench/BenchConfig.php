<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

use WarmHttp\Rig\Nginx;

/**
 * The sizes of one bench run, from the command's options.
 *
 * @internal bench tooling
 */
final readonly class BenchConfig
{
    /** The concurrency issue's setting: parallel rows wait on a server that takes 50 ms. */
    public const PARALLEL_SERVER_MS = 50.0;

    /**
     * @param list<string> $only fnmatch patterns on "group/name"; empty = everything
     */
    public function __construct(
        public float $rttMs = 20.0,
        public int $requests = 50,
        public int $parallelRequests = 100,
        public int $tasks = 10,
        public int $perTask = 3,
        public ?float $serverMs = null,
        public int $payload = 0,
        public int $repeat = 3,
        public int $cpuRequests = 2000,
        public ?string $url = null,
        public array $only = [],
        public string $outDir = 'build/bench',
    ) {
        foreach (['requests' => $requests, 'parallel' => $parallelRequests, 'tasks' => $tasks, 'repeat' => $repeat, 'cpu-requests' => $cpuRequests] as $option => $value) {
            if ($value < 1) {
                throw new BenchException(\sprintf('--%s must be at least 1, got %d.', $option, $value));
            }
        }
        if ($rttMs < 0 || $payload < 0 || ($serverMs ?? 0) < 0) {
            throw new BenchException('--rtt, --server-time and --payload must not be negative.');
        }
        if ($payload > 0 && ($serverMs ?? 0) > 0) {
            throw new BenchException('The rig serves either a delayed reply (/slow) or a payload (/bytes/N), not both: give --server-time or --payload.');
        }
        if ($payload > 0 && !\in_array($payload, Nginx::PAYLOADS, true)) {
            throw new BenchException(\sprintf('--payload must be one of the rig\'s sizes: %s bytes; got %d.', implode(', ', array_unique(Nginx::PAYLOADS)), $payload));
        }
    }

    public function sequentialServerMs(): float
    {
        return $this->serverMs ?? 0.0;
    }

    /** Parallel rows default to 50 ms of server time unless a payload or --server-time is given. */
    public function parallelServerMs(): float
    {
        return $this->serverMs ?? ($this->payload > 0 ? 0.0 : self::PARALLEL_SERVER_MS);
    }

    /** The rig path that costs the server $serverMs (or serves the payload). */
    public function path(float $serverMs): string
    {
        if ($serverMs > 0) {
            return '/slow?ms=' . (int) round($serverMs);
        }

        return $this->payload > 0 ? '/bytes/' . $this->payload : '/fast';
    }

    public function selected(string $id): bool
    {
        if ($this->only === []) {
            return true;
        }
        foreach ($this->only as $pattern) {
            // A pattern without a group ("warmhttp*") matches that name in every group.
            if (fnmatch($pattern, $id) || (!str_contains($pattern, '/') && fnmatch('*/' . $pattern, $id))) {
                return true;
            }
        }

        return false;
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        /** @var array<string, mixed> */
        return get_object_vars($this);
    }
}
