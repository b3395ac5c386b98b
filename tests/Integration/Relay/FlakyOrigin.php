<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * An origin that fails (503) until told to recover: `php -S` with a router that reads its
 * status from a file, logging every request it gets.
 */
final class FlakyOrigin
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, private readonly int $port) {}

    public function __destruct()
    {
        $this->process->stop(1);
        $this->dir->remove();
    }

    public static function start(int $status = 503): self
    {
        $dir = TempDir::create('flaky');
        file_put_contents($dir->path('mode'), (string) $status);
        touch($dir->path('requests.log'));
        $port = FreePort::pick();
        $process = new Process([\PHP_BINARY, '-S', '127.0.0.1:' . $port, __DIR__ . '/flaky-origin-router.php'], null, ['FLAKY_DIR' => $dir->path()]);
        $process->start();
        $deadline = microtime(true) + 5;
        while (($probe = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.1)) === false) {
            if (microtime(true) > $deadline || !$process->isRunning()) {
                throw new \RuntimeException('The flaky origin did not start: ' . $process->getErrorOutput());
            }
            usleep(10_000);
        }
        fclose($probe);

        return new self($dir, $process, $port);
    }

    public function url(string $path): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($path, '/'));
    }

    public function answer(int $status): void
    {
        file_put_contents($this->dir->path('mode'), (string) $status);
    }

    /** @return list<array{method: string, uri: string, key: string, status: int, time: float}> */
    public function requests(): array
    {
        $rows = [];
        foreach (LockedLog::lines($this->dir->path('requests.log')) as $line) {
            [$method, $uri, $key, $status, $time] = explode(' ', $line) + ['', '', '', '0', '0'];
            $rows[] = ['method' => $method, 'uri' => $uri, 'key' => $key, 'status' => (int) $status, 'time' => (float) $time];
        }

        return $rows;
    }

    /**
     * Waits until $until holds for the requests seen, up to $timeout seconds.
     *
     * @param \Closure(list<array{method: string, uri: string, key: string, status: int, time: float}>): bool $until
     */
    public function await(\Closure $until, float $timeout = 15.0): bool
    {
        $deadline = microtime(true) + $timeout;
        while (!$until($this->requests())) {
            if (microtime(true) > $deadline) {
                return false;
            }
            usleep(20_000);
        }

        return true;
    }
}
