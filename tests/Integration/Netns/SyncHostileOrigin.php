<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * An origin that answers scripted raw bytes (sync-hostile-origin.php): the hostile upstream of
 * the sync-mode and client parser tests, and, given an honest script, the trusted one.
 */
final class SyncHostileOrigin
{
    private function __construct(private readonly TempDir $dir, private readonly Process $process, private readonly int $port) {}

    public function __destruct()
    {
        $this->stop();
    }

    /**
     * @param array<string, list<string>> $answers path (without its slash) => the answer's raw
     *                                             bytes, in parts sent 200 ms apart
     * @param list<string>                $closing paths whose connection is closed after the answer
     */
    public static function start(array $answers, array $closing = []): self
    {
        $dir = TempDir::create('sync-hostile-origin');
        $script = [];
        foreach ($answers as $path => $parts) {
            $script[$path] = ['parts' => array_map(base64_encode(...), $parts), 'close' => \in_array($path, $closing, true)];
        }
        file_put_contents($dir->path('answers.json'), json_encode($script, \JSON_THROW_ON_ERROR));
        $process = new Process([\PHP_BINARY, __DIR__ . '/sync-hostile-origin.php', $dir->path()]);
        $process->setTimeout(null);
        $process->start();
        $deadline = microtime(true) + 10;
        while (!is_file($dir->path('port'))) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('The scripted origin did not start: ' . $process->getErrorOutput());
            }
            usleep(5_000);
        }

        return new self($dir, $process, (int) file_get_contents($dir->path('port')));
    }

    /** Through the name the relay is told to allow (it maps to 127.0.0.1 in the namespace). */
    public function url(string $path): string
    {
        return \sprintf('http://public.example:%d/%s', $this->port, $path);
    }

    /** How many requests for this path reached the origin. */
    public function requests(string $path): int
    {
        $lines = @file($this->dir->path('requests'), \FILE_IGNORE_NEW_LINES) ?: [];

        return \count(array_keys($lines, $path, true));
    }

    public function stop(): void
    {
        if ($this->process->isRunning()) {
            $this->process->stop(1);
        }
        $this->dir->remove();
    }
}
