<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\Process;

/**
 * What one wrk run reported.
 *
 * @internal benchmark tooling
 */
final readonly class WrkResult
{
    public function __construct(
        public float $requestsPerMinute,
        public int $requests,
        public string $latency,
        public int $errors,
        public int $fallbacks = 0,
    ) {}

    /** wrk with 2 threads and $connections connections on $url for $seconds (30 s timeout per request). */
    public static function measure(string $url, int $connections, int $seconds): self
    {
        $wrk = new Process(['wrk', '-t2', '-c' . $connections, '-d' . $seconds . 's', '--timeout', '30s', $url]);
        $wrk->setTimeout($seconds + 60);
        $wrk->mustRun();

        return self::parse($wrk->getOutput());
    }

    public static function parse(string $output): self
    {
        $number = static fn(string $pattern): float => preg_match($pattern, $output, $m) === 1 ? (float) $m[1] : 0.0;
        // "Socket errors: connect 0, read 0, write 0, timeout 3": every kind is a failed request.
        $socketErrors = preg_match('/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/', $output, $s) === 1 ? (int) $s[1] + (int) $s[2] + (int) $s[3] + (int) $s[4] : 0;

        return new self(
            round($number('/Requests\/sec:\s+([\d.]+)/') * 60),
            (int) $number('/(\d+) requests in /'),
            preg_match('/Latency\s+(\S+)/', $output, $l) === 1 ? $l[1] : '?',
            (int) $number('/Non-2xx or 3xx responses: (\d+)/') + $socketErrors,
        );
    }

    public function withFallbacks(int $fallbacks): self
    {
        return new self($this->requestsPerMinute, $this->requests, $this->latency, $this->errors, $fallbacks);
    }
}
