<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

/**
 * Follows the rig nginx's JSON access log and groups connections by the bench=TAG query
 * parameter each run puts on its URLs. Reads only what was appended since the last call, so
 * the cost stays flat while the CPU group adds thousands of lines.
 *
 * @internal bench tooling
 */
final class AccessLogTail
{
    private int $offset = 0;
    private string $partial = '';
    /** @var array<string, int> tag => requests logged */
    private array $requests = [];
    /** @var array<string, array<int, bool>> tag => nginx connection serial => TLS session resumed */
    private array $connections = [];

    public function __construct(private readonly string $file) {}

    /**
     * nginx logs after the response went out, so the last lines of a run may lag a little.
     *
     * @return array{int, int} [full handshakes, resumed handshakes]
     */
    public function handshakes(string $tag, int $requests, float $timeout = 2.0): array
    {
        $deadline = microtime(true) + $timeout;
        $this->read();
        while (($this->requests[$tag] ?? 0) < $requests && microtime(true) < $deadline) {
            usleep(5_000);
            $this->read();
        }
        $resumed = \count(array_filter($this->connections[$tag] ?? []));

        return [\count($this->connections[$tag] ?? []) - $resumed, $resumed];
    }

    private function read(): void
    {
        clearstatcache(true, $this->file);
        $chunk = @file_get_contents($this->file, false, null, $this->offset);
        if ($chunk === false || $chunk === '') {
            return;
        }
        $this->offset += \strlen($chunk);
        $lines = explode("\n", $this->partial . $chunk);
        $this->partial = (string) array_pop($lines);
        foreach ($lines as $line) {
            $this->record($line);
        }
    }

    private function record(string $line): void
    {
        $entry = json_decode($line, true);
        if (!\is_array($entry) || !\is_string($entry['uri'] ?? null) || preg_match('/[?&]bench=([^&]+)/', $entry['uri'], $m) !== 1) {
            return;
        }
        $tag = $m[1];
        $this->requests[$tag] = ($this->requests[$tag] ?? 0) + 1;
        $connection = \is_scalar($entry['connection'] ?? null) ? (int) $entry['connection'] : 0;
        $this->connections[$tag][$connection] = 'r' === ($entry['reused'] ?? '');
    }
}
