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
 * The worker gets none of the front's descriptors: PHP opens sockets and files without
 * FD_CLOEXEC and proc_open closes nothing, so a worker used to hold the listening sockets (a
 * front killed with SIGKILL left callers connecting into a queue nobody served), callers'
 * connections (a caller closed by the front saw no EOF) and the spool's lock. Every descriptor
 * above 2 is replaced by /dev/null in the child (proc_open dup2()s a descriptor spec over it
 * before exec); PHP cannot close a descriptor by number, and FFI may be disabled.
 *
 * @internal
 */
final class WorkerHandle
{
    private const RESTART_DELAY_SECONDS = 1.0;

    /** proc_get_status() reads /proc: not on every pass of the front's loop. */
    private const WATCH_SECONDS = 0.1;

    /** Options the worker has no use for; the token must never reach a command line. */
    private const FRONT_ONLY = ['--role', '--front-pid', '--token', '--token-file', '--tcp'];

    /** With --ack=redis, the worker's descriptors for its reports and its wake-ups (AckChannel). */
    public const REPORT_FD = 3;

    public const WAKE_FD = 4;

    private float $nextWatch = 0.0;

    /** @var resource|null */
    private $process = null;

    private float $restartAt = 0.0;

    /** @var resource|null with --ack=redis: the worker's forwarded positions ("segment:offset\n") */
    private $reports = null;

    /** @var resource|null with --ack=redis: a byte here wakes the worker's forwarder */
    private $wakes = null;

    private string $partial = '';

    /**
     * @param list<string>          $command
     * @param array<string, string> $environment the worker's environment (the front's without the token)
     */
    public function __construct(private readonly array $command, private readonly LoggerInterface $logger, private readonly array $environment = [], private readonly bool $ackPipes = false) {}

    /**
     * @param list<string> $argv the front's command line: [script, 'relay', options...] (RelayCommand
     *                           passes its options in --name=value form)
     */
    public static function forFront(array $argv, LoggerInterface $logger, bool $ackPipes = false): self
    {
        $options = array_values(array_filter(\array_slice($argv, 2), static fn(string $a): bool => !self::frontOnly($a)));
        $environment = getenv();
        unset($environment['WARMHTTP_RELAY_TOKEN']);

        return new self([\PHP_BINARY, $argv[0], 'relay', ...$options, '--role=delivery', '--front-pid=' . getmypid()], $logger, $environment, $ackPipes);
    }

    public function start(): void
    {
        $null = fopen('/dev/null', 'r');
        if ($null === false) {
            throw new \RuntimeException('Cannot start the relay delivery worker: /dev/null cannot be opened.');
        }
        $descriptors = [0 => $null, 1 => \STDOUT, 2 => \STDERR];
        foreach (self::openDescriptors() as $fd) {
            $descriptors[$fd] = $null;
        }
        if ($this->ackPipes) {
            // The worker's side: fd 3 it writes its forwarded positions to, fd 4 it is woken on.
            $descriptors[self::REPORT_FD] = ['pipe', 'w'];
            $descriptors[self::WAKE_FD] = ['pipe', 'r'];
        }
        $process = proc_open($this->command, $descriptors, $pipes, null, $this->environment === [] ? null : $this->environment);
        fclose($null);
        if ($process === false) {
            throw new \RuntimeException('Cannot start the relay delivery worker: ' . implode(' ', $this->command));
        }
        $this->process = $process;
        $this->closePipes();
        if ($this->ackPipes) {
            $this->reports = $pipes[self::REPORT_FD];
            $this->wakes = $pipes[self::WAKE_FD];
            stream_set_blocking($this->reports, false);
            stream_set_blocking($this->wakes, false);
        }
    }

    /** @return resource|null the pipe to select on for the worker's reports */
    public function reportPipe()
    {
        return $this->reports;
    }

    /**
     * What the worker reported since the last call (whole lines only); the pipe is closed at
     * its end (the worker exited; a new one gets new pipes).
     */
    public function readReports(): string
    {
        if ($this->reports === null) {
            return '';
        }
        $bytes = (string) @fread($this->reports, 65536);
        if ($bytes === '' && feof($this->reports)) {
            fclose($this->reports);
            $this->reports = null;
        }
        $text = $this->partial . $bytes;
        $end = strrpos($text, "\n");
        if ($end === false) {
            $this->partial = $text;

            return '';
        }
        $this->partial = substr($text, $end + 1);

        return substr($text, 0, $end + 1);
    }

    /** Wakes the worker's forwarder: new records wait for it. A full pipe already wakes it. */
    public function wake(): void
    {
        if ($this->wakes !== null) {
            @fwrite($this->wakes, "\x01");
        }
    }

    private function closePipes(): void
    {
        foreach ([$this->reports, $this->wakes] as $pipe) {
            if (\is_resource($pipe)) {
                fclose($pipe);
            }
        }
        $this->reports = $this->wakes = null;
        $this->partial = '';
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
            $this->restart($now);
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

    /** A worker that cannot start now (out of descriptors or memory) is tried again later; the front keeps serving. */
    private function restart(float $now): void
    {
        try {
            $this->start();
        } catch (\RuntimeException $e) {
            $this->logger->error('Cannot restart the delivery worker; trying again', ['error' => $e->getMessage()]);
            $this->restartAt = $now + self::RESTART_DELAY_SECONDS;
        }
    }

    private static function frontOnly(string $argument): bool
    {
        $name = explode('=', $argument, 2)[0];

        return \in_array($name, self::FRONT_ONLY, true);
    }

    /**
     * This process's open descriptors above 2 (Linux /proc, else /dev/fd). The listing's own
     * descriptor is among them; it is closed by then, and /dev/null in its place harms nothing.
     *
     * @return list<int>
     */
    private static function openDescriptors(): array
    {
        $names = @scandir('/proc/self/fd') ?: (@scandir('/dev/fd') ?: []);

        return array_values(array_map('intval', array_filter($names, static fn(string $n): bool => ctype_digit($n) && (int) $n > 2)));
    }
}
