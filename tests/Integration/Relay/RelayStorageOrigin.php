<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * A loopback origin for the relay's storage tests: `php -S` answering the status and body size
 * it is told, and recording every request's header values and body byte for byte.
 */
final class RelayStorageOrigin
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, private readonly int $port) {}

    public function __destruct()
    {
        $this->process->stop(1);
        $this->dir->remove();
    }

    public static function start(int $status = 200, int $bodyBytes = 0): self
    {
        $dir = TempDir::create('storage-origin');
        touch($dir->path('requests.log'));
        $port = FreePort::pick();
        $process = new Process([\PHP_BINARY, '-S', '127.0.0.1:' . $port, __DIR__ . '/storage/origin-router.php'], null, ['STORAGE_ORIGIN_DIR' => $dir->path()]);
        $origin = new self($dir, $process, $port);
        $origin->answer($status, $bodyBytes);
        $process->start();
        $deadline = microtime(true) + 5;
        while (($probe = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.1)) === false) {
            if (microtime(true) > $deadline || !$process->isRunning()) {
                throw new \RuntimeException('The storage test origin did not start: ' . $process->getErrorOutput());
            }
            usleep(10_000);
        }
        fclose($probe);

        return $origin;
    }

    public function url(string $path): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($path, '/'));
    }

    public function answer(int $status, int $bodyBytes = 0): void
    {
        file_put_contents($this->dir->path('mode'), $status . ' ' . $bodyBytes);
    }

    /** @return list<array{method: string, uri: string, status: int, headers: array<string, string>, body: string}> */
    public function requests(): array
    {
        $rows = [];
        foreach (LockedLog::lines($this->dir->path('requests.log')) as $line) {
            /** @var array{method: string, uri: string, status: int, headers: array<string, string>, body: string} $row */
            $row = json_decode($line, true, 512, \JSON_THROW_ON_ERROR);
            $row['headers'] = array_map(static fn(string $v): string => (string) base64_decode($v, true), $row['headers']);
            $row['body'] = (string) base64_decode($row['body'], true);
            $rows[] = $row;
        }

        return $rows;
    }

    /**
     * The distinct request URIs that reached the origin with a 2xx answer once $count of them
     * did, or what had arrived when $timeout ran out.
     *
     * @return list<string>
     */
    public function awaitDelivered(int $count, float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $delivered = array_values(array_unique(array_map(
                static fn(array $r): string => $r['uri'],
                array_filter($this->requests(), static fn(array $r): bool => $r['status'] < 300),
            )));
            if (\count($delivered) >= $count) {
                return $delivered;
            }
            usleep(50_000);
        } while (microtime(true) < $deadline);

        return $delivered;
    }
}
