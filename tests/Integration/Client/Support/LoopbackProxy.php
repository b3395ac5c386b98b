<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client\Support;

use Symfony\Component\Process\Process;

/**
 * A loopback proxy (loopback-proxy.php) started by a test: HTTP (CONNECT tunnels and
 * absolute-form requests) or SOCKS5. It logs what it was asked: connection, method, target,
 * credentials.
 */
final class LoopbackProxy
{
    private function __construct(private readonly Process $process, public readonly int $port, private readonly string $log) {}

    public function __destruct()
    {
        $this->process->stop(1, \SIGKILL);
        @unlink($this->log);
    }

    /**
     * @param 'http'|'https'|'socks5' $mode
     * @param list<string>            $certificate https: the certificate and key files it serves
     */
    public static function start(string $mode, array $certificate = []): self
    {
        $log = (string) tempnam(sys_get_temp_dir(), 'warmhttp-proxy-');
        $process = new Process([\PHP_BINARY, __DIR__ . '/loopback-proxy.php', $mode, $log, ...$certificate]);
        $process->setTimeout(null);
        $process->start();
        $deadline = microtime(true) + 5;
        while (!str_contains($process->getOutput(), "\n")) {
            if (microtime(true) > $deadline || !$process->isRunning()) {
                throw new \RuntimeException('The loopback proxy did not start: ' . $process->getErrorOutput());
            }
            usleep(5_000);
        }

        return new self($process, (int) trim($process->getOutput()), $log);
    }

    public function url(string $credentials = '', string $scheme = 'http', string $host = '127.0.0.1'): string
    {
        return \sprintf('%s://%s%s:%d', $scheme, $credentials === '' ? '' : $credentials . '@', $host, $this->port);
    }

    /** @return list<array{connection: int, method: string, target: string, auth: string}> */
    public function seen(): array
    {
        $seen = [];
        foreach (file($this->log, \FILE_IGNORE_NEW_LINES | \FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
            /** @var array{connection: int, method: string, target: string, auth: string} $entry */
            $entry = json_decode($line, true);
            $seen[] = $entry;
        }

        return $seen;
    }
}
