<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Bridge\Support;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\PortProbe;

/**
 * PHP's built-in server on an ephemeral loopback port, for the few things the rig's nginx
 * does not serve (Set-Cookie, gzip bodies): see router.php. Stopped when dropped.
 */
final class PhpOrigin
{
    private function __construct(private readonly Process $process, private readonly int $port)
    {
    }

    public function __destruct()
    {
        $this->process->stop(0);
    }

    public static function start(): self
    {
        for ($attempt = 1; ; ++$attempt) {
            $port = FreePort::pick();
            $process = new Process([\PHP_BINARY, '-S', '127.0.0.1:' . $port, __DIR__ . '/router.php']);
            $process->start();
            try {
                PortProbe::waitFor($process, [$port], 'PHP built-in server (tests/Bridge/Support/router.php)');

                return new self($process, $port);
            } catch (\Throwable $e) {
                if ($attempt >= 3) { // FreePort is racy: another process may take the port first
                    throw $e;
                }
            }
        }
    }

    public function url(string $path): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($path, '/'));
    }
}
