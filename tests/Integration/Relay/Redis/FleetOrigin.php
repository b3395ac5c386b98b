<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay\Redis;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * The destination of a fleet's deliveries: `php -S` with several workers, counting requests by
 * id, with the Idempotency-Key and when each began and ended (for overlaps: the cap test).
 */
final class FleetOrigin
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, private readonly int $port) {}

    public function __destruct()
    {
        // php -S's workers are its children and outlive a killed master: stopped first, by pid.
        $children = new Process(['pgrep', '-P', (string) $this->process->getPid()]);
        $children->run();
        foreach (array_filter(array_map('intval', explode("\n", trim($children->getOutput())))) as $child) {
            posix_kill($child, \SIGKILL);
        }
        $this->process->stop(1);
        $this->dir->remove();
    }

    public static function start(int $status = 200, int $delayMs = 0, int $workers = 8): self
    {
        $dir = TempDir::create('fleet-origin');
        file_put_contents($dir->path('mode'), (string) $status);
        file_put_contents($dir->path('delay'), (string) $delayMs);
        touch($dir->path('requests.log'));
        $port = FreePort::pick();
        $process = new Process([\PHP_BINARY, '-S', '127.0.0.1:' . $port, __DIR__ . '/fleet-origin-router.php'], null, ['FLEET_ORIGIN_DIR' => $dir->path(), 'PHP_CLI_SERVER_WORKERS' => (string) $workers]);
        $process->start();
        $deadline = microtime(true) + 5;
        while (($probe = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.1)) === false) {
            if (microtime(true) > $deadline || !$process->isRunning()) {
                throw new \RuntimeException('The origin did not start: ' . $process->getErrorOutput());
            }
            usleep(10_000);
        }
        fclose($probe);

        return new self($dir, $process, $port);
    }

    public function url(int|string $id): string
    {
        return \sprintf('http://127.0.0.1:%d/hook?id=%s', $this->port, $id);
    }

    public function answer(int $status): void
    {
        file_put_contents($this->dir->path('mode'), (string) $status);
    }

    /** @return list<array{id: string, key: string, start: float, end: float, status: int}> */
    public function requests(): array
    {
        $rows = [];
        foreach (file($this->dir->path('requests.log'), \FILE_IGNORE_NEW_LINES | \FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
            [$id, $key, $start, $end, $status] = explode(' ', $line) + ['', '', '0', '0', '0'];
            $rows[] = ['id' => $id, 'key' => $key, 'start' => (float) $start, 'end' => (float) $end, 'status' => (int) $status];
        }

        return $rows;
    }

    /** @return array<string, int> id => how many times it was answered 200 */
    public function delivered(): array
    {
        $counts = [];
        foreach ($this->requests() as $request) {
            if ($request['status'] === 200) {
                $counts[$request['id']] = ($counts[$request['id']] ?? 0) + 1;
            }
        }

        return $counts;
    }

    /**
     * Waits until every id has been answered 200, up to $timeout seconds.
     *
     * @param list<int|string> $ids
     *
     * @return list<string> the ids still missing
     */
    public function awaitDelivered(array $ids, float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $missing = array_values(array_diff(array_map('strval', $ids), array_keys($this->delivered())));
            if ($missing === [] || microtime(true) > $deadline) {
                return $missing;
            }
            usleep(50_000);
        } while (true);
    }

    /** The most requests the origin was answering at one time. */
    public function mostAtOnce(): int
    {
        $events = [];
        foreach ($this->requests() as $request) {
            $events[] = [$request['start'], 1];
            $events[] = [$request['end'], -1];
        }
        usort($events, static fn(array $a, array $b): int => [$a[0], $a[1]] <=> [$b[0], $b[1]]);
        [$now, $most] = [0, 0];
        foreach ($events as [, $step]) {
            $now += $step;
            $most = max($most, $now);
        }

        return $most;
    }
}
