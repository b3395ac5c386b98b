<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

use Symfony\Component\Process\ExecutableFinder;
use Symfony\Component\Process\Process;

/**
 * A private nginx (master + 1 worker) on three ephemeral loopback ports, everything (config,
 * pid, logs, temp files, payloads) in its own temp dir.
 *
 * @internal test/bench tooling
 *
 * @phpstan-import-type Entry from AccessLog
 */
final class Nginx
{
    public const LISTENERS = ['h2', 'h1tls', 'plain'];

    /** Payloads served by /bytes/NAME, as name => size. */
    public const PAYLOADS = [
        '0' => 0, '1' => 1, '100' => 100,
        '1k' => 1024, '1024' => 1024, '10k' => 10240, '10240' => 10240,
        '100k' => 102400, '102400' => 102400, '1m' => 1048576, '1048576' => 1048576,
        '10m' => 10485760, '10485760' => 10485760, '1g' => 1073741824, '1073741824' => 1073741824,
    ];

    /** The JSON answer served by /json/NAME (gzip_static: /json/NAME.gz to a client that accepts gzip). */
    public const JSON_PAYLOADS = ['large.json'];

    private ?Process $process;

    /**
     * @param array{h2: int, h1tls: int, plain: int, mtls: int, mtls_optional: int} $ports
     */
    private function __construct(
        private readonly TempDir $dir,
        private readonly array $ports,
        Process $process,
    ) {
        $this->process = $process;
    }

    public function __destruct()
    {
        $this->stop();
    }

    /**
     * @param float $keepaliveTimeoutSeconds how long nginx keeps an idle connection (ms precision)
     */
    public static function start(Certificate $certificate, float $keepaliveTimeoutSeconds = 75): self
    {
        $binary = self::binary();
        $dir = TempDir::create('nginx');
        try {
            self::prepare($dir);
            for ($attempt = 1; ; ++$attempt) {
                try {
                    return self::launch($binary, $dir, $certificate, $keepaliveTimeoutSeconds);
                } catch (RigException $e) {
                    // FreePort is racy: another process may have taken a port meanwhile.
                    if ($attempt >= 4 || !str_contains($e->getMessage(), 'Address already in use')) {
                        throw $e;
                    }
                }
            }
        } catch (\Throwable $e) {
            $dir->remove();

            throw $e;
        }
    }

    public function h2Port(): int
    {
        return $this->ports['h2'];
    }

    public function h1TlsPort(): int
    {
        return $this->ports['h1tls'];
    }

    public function plainPort(): int
    {
        return $this->ports['plain'];
    }

    /**
     * @param string $listener 'h2', 'h1tls', 'plain', or the client-certificate ones 'mtls'
     *                         (required) and 'mtls_optional'
     */
    public function port(string $listener): int
    {
        return match ($listener) {
            'h2', 'h1tls', 'plain', 'mtls', 'mtls_optional' => $this->ports[$listener],
            default => throw new \InvalidArgumentException(\sprintf('Unknown listener "%s", expected one of: %s.', $listener, implode(', ', self::LISTENERS))),
        };
    }

    /**
     * @param string $listener 'h2', 'h1tls' or 'plain'
     */
    public function url(string $listener, string $path = '/fast'): string
    {
        $scheme = $listener === 'plain' ? 'http' : 'https';

        return \sprintf('%s://127.0.0.1:%d/%s', $scheme, $this->port($listener), ltrim($path, '/'));
    }

    /**
     * Entries are written by nginx after the response went out: a test reading right after its
     * last response may, rarely, miss that one; use awaitRequests() when counting.
     *
     * @return list<Entry>
     */
    public function accessLog(): array
    {
        return (new AccessLog($this->dir->path('access.log')))->entries();
    }

    public function requestCount(string $pathPrefix = ''): int
    {
        return \count($this->entriesFor($pathPrefix));
    }

    /**
     * Waits (up to $timeout) until at least $count requests under $pathPrefix were logged.
     */
    public function awaitRequests(int $count, string $pathPrefix = '', float $timeout = 2.0): int
    {
        $deadline = microtime(true) + $timeout;
        while (($seen = $this->requestCount($pathPrefix)) < $count && microtime(true) < $deadline) {
            usleep(2_000);
        }

        return $seen;
    }

    public function distinctConnections(?int $port = null, string $pathPrefix = ''): int
    {
        $ids = [];
        foreach ($this->entriesFor($pathPrefix) as $entry) {
            if ($port === null || $entry['port'] === $port) {
                $ids[$entry['connection']] = true;
            }
        }

        return \count($ids);
    }

    public function errorLog(): string
    {
        return (string) @file_get_contents($this->dir->path('error.log'));
    }

    public function dir(): string
    {
        return $this->dir->path();
    }

    public function stop(): void
    {
        if ($this->process === null) {
            return;
        }
        // SIGTERM is nginx's fast shutdown; the master takes its worker with it.
        $this->process->stop(3, \SIGTERM);
        $this->process = null;
        $this->dir->remove();
    }

    /**
     * @return list<Entry>
     */
    private function entriesFor(string $pathPrefix): array
    {
        return array_values(array_filter(
            $this->accessLog(),
            static fn(array $entry): bool => str_starts_with($entry['uri'], $pathPrefix),
        ));
    }

    private static function binary(): string
    {
        $binary = (new ExecutableFinder())->find('nginx', null, ['/usr/sbin', '/usr/local/sbin']);
        if ($binary === null || !is_file(NginxConfig::ECHO_MODULE)) {
            throw new RigException('The test rig needs nginx 1.22+ with the echo module: apt-get install nginx libnginx-mod-http-echo');
        }

        return $binary;
    }

    /**
     * nginx outlives a test run killed with SIGKILL (no shutdown function runs); setpriv makes
     * the kernel send it SIGTERM when its parent, this PHP process, dies.
     *
     * @return list<string>
     */
    private static function dieWithParent(): array
    {
        $setpriv = (new ExecutableFinder())->find('setpriv');

        return $setpriv === null ? [] : [$setpriv, '--pdeathsig', 'TERM', '--'];
    }

    private static function prepare(TempDir $dir): void
    {
        foreach (['tmp', 'bytes', 'json', 'encoded'] as $sub) {
            mkdir($dir->path($sub), 0o700);
        }
        foreach (self::PAYLOADS as $name => $size) {
            $handle = fopen($dir->path('bytes/' . $name), 'w');
            if ($handle === false) {
                throw new RigException('Cannot create payload file ' . $dir->path('bytes/' . $name));
            }
            // Sparse: 1 GiB of zeros costs no disk and no time.
            ftruncate($handle, $size);
            fclose($handle);
        }
        self::writeJson($dir->path('json/large.json'));
    }

    /**
     * A 1 MiB API-like JSON answer, and beside it the gzip of it that gzip_static serves to a
     * client that accepts gzip (nginx spends no CPU compressing, in tests or benchmarks).
     */
    private static function writeJson(string $path): void
    {
        $items = [];
        for ($i = 0; $i < 8200; ++$i) { // about 1 MiB, 10:1 in gzip
            $items[] = ['id' => $i, 'name' => 'item-' . $i, 'tags' => ['alpha', 'beta', 'gamma'], 'price' => $i * 1.25,
                'active' => $i % 3 === 0, 'created_at' => \sprintf('2026-01-%02dT10:%02d:00Z', $i % 28 + 1, $i % 60)];
        }
        $json = (string) json_encode(['items' => $items]);
        file_put_contents($path, $json);
        file_put_contents($path . '.gz', (string) gzencode($json, 6));
    }

    /**
     * Puts a file under /gzip/NAME, /zstd/NAME, /br/NAME and /deflate/NAME, served as it is with that Content-Encoding
     * (test answers made beforehand, such as a gzip bomb).
     */
    public function putEncoded(string $name, string $bytes): string
    {
        file_put_contents($this->dir->path('encoded/' . $name), $bytes);

        return $name;
    }

    public function encodedPath(string $name): string
    {
        return $this->dir->path('encoded/' . $name);
    }

    private static function launch(string $binary, TempDir $dir, Certificate $certificate, float $keepalive): self
    {
        $ports = ['h2' => FreePort::pick(), 'h1tls' => FreePort::pick(), 'plain' => FreePort::pick(), 'mtls' => FreePort::pick(), 'mtls_optional' => FreePort::pick()];
        $config = new NginxConfig($dir->path(), $ports, $certificate, $keepalive);
        file_put_contents($dir->path('locations.conf'), $config->locations());
        file_put_contents($dir->path('nginx.conf'), $config->render());
        file_put_contents($dir->path('error.log'), '');
        @unlink($dir->path('nginx.pid'));

        $process = new Process([...self::dieWithParent(), $binary, '-p', $dir->path(), '-e', $dir->path('error.log'), '-c', $dir->path('nginx.conf'), '-g', 'daemon off; master_process on;']);
        $process->setTimeout(null);
        $process->start();
        try {
            // nginx writes its pid file only once every listener is bound: until then a port
            // that accepts may belong to someone else who took it after FreePort::pick().
            PortProbe::waitForFiles($process, [$dir->path('nginx.pid')], 'nginx');
            PortProbe::waitFor($process, array_values($ports), 'nginx');
        } catch (RigException $e) {
            throw new RigException($e->getMessage() . ' error.log: ' . trim((string) @file_get_contents($dir->path('error.log'))), 0, $e);
        }

        return new self($dir, $ports, $process);
    }
}
