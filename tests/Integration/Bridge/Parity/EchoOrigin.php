<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\PortProbe;
use WarmHttp\Rig\TempDir;

/**
 * The parity suite's origin (bin/echo-origin.php) in its own process on 127.0.0.1:<ephemeral>:
 * records exactly what it received and answers what script() says. Stopped when dropped.
 */
final class EchoOrigin
{
    private int $version = 0;
    private int $port;

    private function __construct(private readonly Process $process, private readonly TempDir $dir)
    {
        $this->port = (int) file_get_contents($dir->path('port'));
    }

    public function __destruct()
    {
        $this->process->stop(1);
        $this->dir->remove();
    }

    public static function start(): self
    {
        $dir = TempDir::create('echo-origin');
        $process = new Process([\PHP_BINARY, __DIR__ . '/bin/echo-origin.php', $dir->path()]);
        $process->setTimeout(null);
        $process->start();
        PortProbe::waitForFiles($process, [$dir->path('port')], 'The parity echo origin (tests/Integration/Bridge/Parity/bin/echo-origin.php)');

        return new self($process, $dir);
    }

    public function port(): int
    {
        return $this->port;
    }

    public function url(string $path = '/'): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($path, '/'));
    }

    /**
     * Answers from now on, by path ('*' for any other path); a list is used in turn, its last
     * answer repeating. Every call starts the turns afresh, also for an unchanged script.
     *
     * @param array<string, Answer|list<Answer>> $answers
     */
    public function script(array $answers): void
    {
        $paths = [];
        foreach ($answers as $path => $answer) {
            $list = $answer instanceof Answer ? [$answer] : $answer;
            $paths[$path] = array_map(static fn(Answer $a): array => $a->toScript(), $list);
        }
        $file = $this->dir->path('script.json');
        file_put_contents($file . '.tmp', json_encode(['version' => (string) ++$this->version, 'paths' => $paths], \JSON_THROW_ON_ERROR));
        rename($file . '.tmp', $file);
    }

    /** Where the record of received requests ends now: pass it to received() later. */
    public function mark(): int
    {
        clearstatcache(true, $this->dir->path('received.jsonl'));

        return (int) filesize($this->dir->path('received.jsonl'));
    }

    /**
     * The requests received since $mark, in arrival order.
     *
     * @return list<Received>
     */
    public function received(int $mark = 0): array
    {
        $records = [];
        $bytes = (string) file_get_contents($this->dir->path('received.jsonl'), false, null, $mark);
        foreach (explode("\n", trim($bytes)) as $line) {
            if ($line !== '') {
                $json = json_decode($line, true, 512, \JSON_THROW_ON_ERROR);
                \assert(\is_array($json));
                $records[] = Received::fromJson($json);
            }
        }

        return $records;
    }
}
