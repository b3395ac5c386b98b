<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Cpu;

use Symfony\Component\Process\ExecutableFinder;
use Symfony\Component\Process\Process;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Tls;

/**
 * Instructions per warm request of a CPU row, counted by valgrind's callgrind: the figure
 * that holds still on a shared machine (CPU time moves with load, caches and frequency).
 *
 * The row runs in a child (measured.php) that marks the start and the end of its N warm
 * requests by calling getppid(); callgrind dumps its counts on entering it
 * (--dump-before=getppid), so the second part holds those N requests alone: the same figure
 * as (Ir(N + M) - Ir(M)) / N of two runs, start-up subtracted, in one run. The child runs
 * without opcache, as the CLI does by default. Counts vary by about 1 % between runs, with the
 * number of poll rounds the requests happened to need.
 *
 * @internal bench tooling
 */
final class Callgrind
{
    private const TIMEOUT_SECONDS = 600;

    public function __construct(public readonly int $requests)
    {
        if ($requests < 1) {
            throw new BenchException(\sprintf('Callgrind needs at least one request, got %d.', $requests));
        }
    }

    /**
     * As many requests as the CPU group times, from 100 to 2000: 300 in the quick run
     * (about 5 s of callgrind for WarmHttp's row, 15 s for Guzzle's), 2000 in a full one.
     */
    public static function forRequests(int $cpuRequests): self
    {
        return new self(min(2000, max(100, $cpuRequests)));
    }

    /** Why instructions cannot be counted here, or null. */
    public static function missing(): ?string
    {
        if (!\function_exists('posix_getppid')) {
            return 'the posix extension is not loaded (it marks the measured requests)';
        }

        return (new ExecutableFinder())->find('valgrind') === null ? 'valgrind is not installed (apt-get install valgrind)' : null;
    }

    /** Instructions of one warm request of the row. */
    public function perRequest(string $row, string $url, Tls $tls): float
    {
        $out = tempnam(sys_get_temp_dir(), 'warmhttp-callgrind-');
        if ($out === false) {
            throw new BenchException('Callgrind: cannot create a temporary file.');
        }
        try {
            $process = new Process(['valgrind', '--tool=callgrind', '--dump-before=getppid', '--callgrind-out-file=' . $out, \PHP_BINARY, '-d', 'opcache.enable_cli=0', __DIR__ . '/measured.php', $row, $url, $tls->caFile ?? '-', $tls->verify ? '1' : '0', (string) $this->requests]);
            $process->setTimeout(self::TIMEOUT_SECONDS);
            $process->run();
            if (!$process->isSuccessful()) {
                throw new BenchException(\sprintf('Callgrind of row %s failed: %s', $row, trim($process->getErrorOutput() . $process->getOutput())));
            }
            if (is_file($out . '.3') || !is_file($out . '.2')) {
                throw new BenchException(\sprintf('Callgrind of row %s: getppid() ran other than at the two marks; its counts cannot be split.', $row));
            }

            return self::totalOf((string) file_get_contents($out . '.2')) / $this->requests;
        } finally {
            foreach ([$out, ...(glob($out . '.*') ?: [])] as $file) {
                @unlink($file);
            }
        }
    }

    /** The "summary:" (or "totals:") line of a callgrind output file: instructions read. */
    public static function totalOf(string $callgrindOut): int
    {
        if (preg_match('/^(?:summary|totals):\s+(\d+)/m', $callgrindOut, $match) !== 1) {
            throw new BenchException('Callgrind wrote no summary line.');
        }

        return (int) $match[1];
    }
}
