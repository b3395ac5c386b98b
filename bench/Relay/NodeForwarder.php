<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\ExecutableFinder;
use Symfony\Component\Process\Process;

/**
 * seeds/004's Node.js forwarder (bench/node/forwarder.js: Express, answers at once, POSTs the
 * body on with Node's http(s) module, keeps nothing but memory), started on an ephemeral
 * loopback port for one measurement and stopped with the object.
 *
 * @internal benchmark tooling
 */
final class NodeForwarder
{
    public const DIR = __DIR__ . '/../node';

    private function __construct(private readonly Process $process, public readonly int $port, public readonly ?int $pinnedCpu) {}

    public function __destruct()
    {
        $this->stop();
    }

    /** What is missing to run it (the skip reason), or null; $dir is the forwarder's folder. */
    public static function missing(string $dir = self::DIR): ?string
    {
        if ((new ExecutableFinder())->find('node') === null) {
            return 'needs Node.js for seeds/004\'s forwarder: apt-get install nodejs npm, then npm ci --prefix bench/node';
        }

        return is_file($dir . '/node_modules/express/package.json') ? null : 'needs bench/node\'s packages (Express) for seeds/004\'s forwarder: npm ci --prefix bench/node';
    }

    /**
     * @param string      $forwardUrl where every POST goes on to
     * @param string|null $caFile     a CA Node trusts besides its own (the rig's), for https
     * @param bool        $oneCore    confine it to the machine's last CPU, as the relay's throughput row is
     */
    public static function start(string $forwardUrl, ?string $caFile = null, bool $oneCore = false): self
    {
        $cpu = $oneCore ? LastCpu::number() : null;
        $env = ['FORWARD_URL' => $forwardUrl, 'PORT' => '0'] + ($caFile === null ? [] : ['NODE_EXTRA_CA_CERTS' => $caFile]);
        $process = new Process([...($cpu === null ? [] : ['taskset', '-c', (string) $cpu]), 'node', self::DIR . '/forwarder.js'], null, $env);
        $process->setTimeout(null);
        $process->start();
        $deadline = microtime(true) + 10;
        while (preg_match('/^listening (\d+)$/m', $process->getOutput(), $m) !== 1) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                $process->stop(0);

                throw new \RuntimeException('The Node forwarder (bench/node/forwarder.js) did not start: ' . (trim($process->getErrorOutput()) ?: 'no output'));
            }
            usleep(10_000);
        }

        return new self($process, (int) $m[1], $cpu);
    }

    public function url(string $pathAndQuery): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($pathAndQuery, '/'));
    }

    /** @return array<int, float>|null pid => CPU seconds so far; null off Linux */
    public function cpuSeconds(): ?array
    {
        $pid = $this->process->getPid();

        return $pid === null ? null : ProcessCpu::byProcess($pid);
    }

    /** Forwards Node gave up on (it logs each to stderr and drops it). */
    public function failedForwards(): int
    {
        return substr_count($this->process->getErrorOutput(), 'forward failed');
    }

    /** SIGKILL, as the OOM killer or a kill -9 would end it. */
    public function kill(): void
    {
        if ($this->process->isRunning()) {
            $this->process->signal(\SIGKILL);
            $this->process->wait();
        }
    }

    /** Anything in flight is dropped: that is what this forwarder does on any stop. */
    public function stop(): void
    {
        if ($this->process->isRunning()) {
            $this->process->stop(1.0, \SIGTERM);
        }
    }
}
