<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

use Symfony\Component\Process\Process;

/**
 * Waits until a freshly started server accepts TCP connections, failing fast (with the
 * process's own output) when the process dies first.
 *
 * @internal test/bench tooling
 */
final class PortProbe
{
    public static function accepts(int $port): bool
    {
        $socket = @stream_socket_client('tcp://127.0.0.1:' . $port, $errno, $errstr, 0.2);
        if ($socket === false) {
            return false;
        }
        fclose($socket);

        return true;
    }

    /**
     * @param list<int> $ports
     */
    public static function waitFor(Process $process, array $ports, string $what, float $timeout = 10.0): void
    {
        $deadline = microtime(true) + $timeout;
        foreach ($ports as $port) {
            while (!self::accepts($port)) {
                self::assertAlive($process, $what);
                if (microtime(true) > $deadline) {
                    $process->stop(0);

                    throw new RigException(\sprintf('%s did not accept connections on 127.0.0.1:%d within %.1f s. %s', $what, $port, $timeout, self::output($process)));
                }
                usleep(5_000);
            }
        }
    }

    /**
     * @param list<string> $files
     */
    public static function waitForFiles(Process $process, array $files, string $what, float $timeout = 10.0): void
    {
        $deadline = microtime(true) + $timeout;
        foreach ($files as $file) {
            while (!is_file($file)) {
                self::assertAlive($process, $what);
                if (microtime(true) > $deadline) {
                    $process->stop(0);

                    throw new RigException(\sprintf('%s did not write %s within %.1f s. %s', $what, $file, $timeout, self::output($process)));
                }
                usleep(2_000);
            }
        }
    }

    public static function assertAlive(Process $process, string $what): void
    {
        if (!$process->isRunning()) {
            throw new RigException(\sprintf('%s exited with code %s before it was ready. %s', $what, var_export($process->getExitCode(), true), self::output($process)));
        }
    }

    private static function output(Process $process): string
    {
        return trim('stderr: ' . $process->getErrorOutput() . ' stdout: ' . $process->getOutput());
    }
}
