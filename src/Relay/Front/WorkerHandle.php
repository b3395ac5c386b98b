<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use Psr\Log\LoggerInterface;

/**
 * The front process's handle on the delivery worker: the same command line with
 * `--role=delivery`, logging to the same stderr. Restarted if it dies; told to drain on stop.
 * A worker is a process of its own rather than a fork, so it starts with no curl state of the
 * front's (libcurl is not fork-safe).
 *
 * @internal
 */
final class WorkerHandle
{
    private const RESTART_DELAY_SECONDS = 1.0;

    /** proc_get_status() reads /proc: not on every pass of the front's loop. */
    private const WATCH_SECONDS = 0.1;

    private float $nextWatch = 0.0;

    /** @var resource|null */
    private $process = null;

    private float $restartAt = 0.0;

    /** @param list<string> $command */
    public function __construct(private readonly array $command, private readonly LoggerInterface $logger) {}

    /** @param list<string> $argv the front's own command line, as $_SERVER['argv'] has it */
    public static function forFront(array $argv, LoggerInterface $logger): self
    {
        $options = array_values(array_filter(\array_slice($argv, 2), static fn(string $a): bool => !str_starts_with($a, '--role') && !str_starts_with($a, '--front-pid')));

        return new self([\PHP_BINARY, $argv[0], 'relay', ...$options, '--role=delivery', '--front-pid=' . getmypid()], $logger);
    }

    public function start(): void
    {
        $process = proc_open($this->command, [0 => ['file', '/dev/null', 'r'], 1 => \STDOUT, 2 => \STDERR], $pipes);
        if ($process === false) {
            throw new \RuntimeException('Cannot start the relay delivery worker: ' . implode(' ', $this->command));
        }
        $this->process = $process;
    }

    /** Called every loop, looks every WATCH_SECONDS: restarts a worker that died, after a pause. */
    public function watch(): void
    {
        $now = microtime(true);
        if ($this->process === null || $now < $this->nextWatch) {
            return;
        }
        $this->nextWatch = $now + self::WATCH_SECONDS;
        $status = $this->restartAt === 0.0 ? proc_get_status($this->process) : null;
        if ($status !== null && $status['running']) {
            return;
        }
        if ($status !== null) {
            $this->logger->error('The delivery worker exited; restarting it', ['exit_code' => $status['exitcode']]);
            $this->restartAt = $now + self::RESTART_DELAY_SECONDS;
        }
        if ($now >= $this->restartAt) {
            $this->restartAt = 0.0;
            $this->start();
        }
    }

    /** SIGTERM: the worker stops taking new work and drains (--drain-timeout). */
    public function drain(): void
    {
        if ($this->process !== null) {
            proc_terminate($this->process, \SIGTERM);
        }
    }

    /** Drains the worker if not done yet, and waits for it to exit. */
    public function stop(float $timeout): void
    {
        if ($this->process === null) {
            return;
        }
        $process = $this->process;
        $this->process = null;
        proc_terminate($process, \SIGTERM);
        $deadline = microtime(true) + $timeout + 2.0;
        while (proc_get_status($process)['running'] && microtime(true) < $deadline) {
            usleep(10_000);
        }
        if (proc_get_status($process)['running']) {
            proc_terminate($process, \SIGKILL);
        }
        proc_close($process);
    }
}
