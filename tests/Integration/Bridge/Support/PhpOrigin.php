<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Support;

use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\PortProbe;

/**
 * PHP's built-in server on an ephemeral loopback port, for what the rig's nginx does not
 * serve: Set-Cookie and gzip (router.php), a request recorder (tests/Psr18). Stopped when dropped.
 */
final class PhpOrigin
{
    private function __construct(private readonly Process $process, private readonly int $port) {}

    public function __destruct()
    {
        $this->process->stop(0);
    }

    /**
     * @param string                $router a php -S router script
     * @param array<string, string> $env    for the server process
     */
    public static function start(string $router = __DIR__ . '/router.php', array $env = []): self
    {
        for ($attempt = 1; ; ++$attempt) {
            $port = FreePort::pick();
            $process = new Process([\PHP_BINARY, '-S', '127.0.0.1:' . $port, $router], null, $env);
            $process->start();
            try {
                PortProbe::waitFor($process, [$port], \sprintf('PHP built-in server (%s)', basename($router)));

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
