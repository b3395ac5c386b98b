<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Relay\Console\RelayToken;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * What another local user could read or reach of a real relay: its token in `ps`, its files,
 * and its listening sockets through a delivery worker that outlived its front. Destinations are
 * 127.0.0.1:9 (nothing listens; deliveries fail and stay spooled).
 */
final class RelaySecretsTest extends TestCase
{
    private const TOKEN = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';

    public function testATokenFromAFileIsOnNoCommandLineNorInTheWorkersEnvironment(): void
    {
        $file = TempDir::create('token');
        file_put_contents($file->path('token'), self::TOKEN . "\n");
        chmod($file->path('token'), 0o600);
        $port = FreePort::pick();
        // Also in the environment (the file wins): the worker must get it from neither.
        $relay = self::withTokenInEnvironment(['--allow-private-networks', "--tcp=127.0.0.1:$port", '--token-file=' . $file->path('token')]);
        $worker = self::worker($relay->pid());

        self::assertStringContainsString(self::TOKEN, self::proc($relay->pid(), 'environ'));
        self::assertStringNotContainsString(self::TOKEN, self::proc($relay->pid(), 'cmdline'));
        self::assertStringNotContainsString(self::TOKEN, self::proc($worker, 'cmdline'));
        self::assertStringNotContainsString(self::TOKEN, self::proc($worker, 'environ'));
        self::assertStringStartsWith('HTTP/1.1 202', self::tcpDispatch($port, self::TOKEN));
        self::assertStringStartsWith('HTTP/1.1 401', self::tcpDispatch($port, strrev(self::TOKEN)));
    }

    public function testTheDeprecatedTokenOptionWarnsAndLeavesTheProcessTitle(): void
    {
        $port = FreePort::pick();
        $relay = RelayProcess::start(['--allow-private-networks', "--tcp=127.0.0.1:$port", '--token', self::TOKEN, '--max-body=1000', '--allow-host=a.example', '--allow-host=b.example']);
        $worker = self::worker($relay->pid());

        self::assertStringContainsString('The --token option is deprecated', $relay->log());
        self::assertStringNotContainsString(self::TOKEN, self::proc($relay->pid(), 'cmdline'));
        self::assertStringContainsString('--token=[hidden]', self::proc($relay->pid(), 'cmdline'));
        self::assertStringNotContainsString(self::TOKEN, self::proc($worker, 'cmdline'));
        // The worker's command line is rebuilt from the front's parsed options, not copied.
        self::assertStringContainsString(' --allow-private-networks --allow-host=a.example --allow-host=b.example --max-body=1000 ', self::proc($worker, 'cmdline'));
        self::assertStringStartsWith('HTTP/1.1 202', self::tcpDispatch($port, self::TOKEN));
    }

    public function testATokenFileOthersCanReadAndAShortTokenStopTheStart(): void
    {
        $dir = TempDir::create('token');
        file_put_contents($dir->path('token'), self::TOKEN);
        chmod($dir->path('token'), 0o644);
        $common = ['--socket=' . $dir->path('r.sock'), '--spool=' . $dir->path('s.sqlite'), '--tcp=127.0.0.1:' . FreePort::pick()];

        $readable = self::relay([...$common, '--token-file=' . $dir->path('token')]);
        $short = self::relay($common, [RelayToken::ENV => 's3cret']);

        self::assertSame(2, $readable->getExitCode());
        self::assertStringContainsString('is readable or writable by other users (mode 0644)', $readable->getErrorOutput());
        self::assertSame(2, $short->getExitCode());
        self::assertStringContainsString('The token from $WARMHTTP_RELAY_TOKEN is 6 characters long; the relay needs at least 32', $short->getErrorOutput());
        self::assertFileDoesNotExist($dir->path('r.sock'));
    }

    /**
     * Every file under the state directory once the worker has taken requests into the spool:
     * spool, -wal, -shm, journal segment, metrics, locks, the socket record. The spool was left
     * 0644 by an older relay: SQLite gives a new -wal its database file's mode.
     */
    public function testEveryFileTheRelayCreatesIsPrivateAndTheSocketGroupOnly(): void
    {
        $dir = TempDir::create('state');
        touch($dir->path('spool.sqlite'));
        chmod($dir->path('spool.sqlite'), 0o644);
        $relay = RelayProcess::start(['--allow-private-networks'], $dir->path('spool.sqlite'));
        for ($i = 0; $i < 5; ++$i) {
            self::assertStringStartsWith('HTTP/1.1 202', $relay->raw(self::dispatch('Authorization: Bearer secret')));
        }
        self::awaitFile($dir->path('spool.sqlite-wal'));
        self::awaitFile($dir->path('spool.sqlite.metrics.json'));

        $modes = self::modes($dir->path());

        self::assertSame(0o140660, self::modes($relay->dir())[$relay->socketPath()] ?? null);
        self::assertGreaterThanOrEqual(6, \count($modes), implode(', ', array_keys($modes)));
        self::assertSame([], array_filter($modes, static fn(int $mode): bool => ($mode & 0o077) !== 0), 'readable or writable by others');
        self::assertStringContainsString('Files of the relay were readable by other users', $relay->log());
    }

    /**
     * The worker shares no socket with the front, neither the first one nor one restarted while
     * a caller is connected. With the worker stopped (as a busy or dying one would be) and the
     * front killed, a connect is refused at once: before, the worker still held the listeners
     * and the connect was accepted into a queue nobody served.
     */
    public function testTheWorkerHoldsNoSocketOfTheFrontAndAKilledFrontRefusesConnects(): void
    {
        $port = FreePort::pick();
        $relay = self::withTokenInEnvironment(['--allow-private-networks', "--tcp=127.0.0.1:$port"]);
        $first = self::worker($relay->pid());
        self::assertGreaterThanOrEqual(2, \count(self::sockets($relay->pid())), 'the front listens on a unix socket and a TCP port');
        self::assertSame([], array_intersect(self::sockets($relay->pid()), self::sockets($first)));

        $caller = stream_socket_client($relay->address());
        self::assertNotFalse($caller);
        posix_kill($first, \SIGKILL);
        $second = self::worker($relay->pid(), $first);
        self::assertSame([], array_intersect(self::sockets($relay->pid()), self::sockets($second)));

        posix_kill($second, \SIGSTOP);
        try {
            $relay->kill();
            self::assertFalse(@stream_socket_client($relay->address(), $errno, $errstr, 1.0), 'unix socket still accepts');
            self::assertSame(\SOCKET_ECONNREFUSED, $errno, (string) $errstr);
            self::assertFalse(@stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 1.0), 'TCP port still accepts');
            self::assertSame(\SOCKET_ECONNREFUSED, $errno, (string) $errstr);
        } finally {
            posix_kill($second, \SIGKILL);
        }
    }

    /**
     * A relay started with $WARMHTTP_RELAY_TOKEN set (Symfony's Process passes $_ENV on).
     *
     * @param list<string> $options
     */
    private static function withTokenInEnvironment(array $options): RelayProcess
    {
        $_ENV[RelayToken::ENV] = self::TOKEN;
        try {
            return RelayProcess::start($options);
        } finally {
            unset($_ENV[RelayToken::ENV]);
        }
    }

    /**
     * @param list<string>          $options
     * @param array<string, string> $environment
     */
    private static function relay(array $options, array $environment = []): Process
    {
        $process = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', ...$options], null, [RelayToken::ENV => false, ...$environment]);
        $process->setTimeout(10);
        $process->run();

        return $process;
    }

    private static function dispatch(string $header): string
    {
        return "POST http://127.0.0.1:9/hook HTTP/1.1\r\nHost: 127.0.0.1:9\r\n$header\r\nContent-Length: 6\r\n\r\nsecret";
    }

    private static function tcpDispatch(int $port, string $token): string
    {
        $socket = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2);
        self::assertNotFalse($socket, (string) $errstr);
        stream_set_timeout($socket, 5);
        fwrite($socket, self::dispatch('X-WarmHttp-Token: ' . $token));
        $answer = (string) fread($socket, 8192);
        fclose($socket);

        return $answer;
    }

    /** The delivery worker the front started (other than $not), once it runs. */
    private static function worker(int $front, int $not = 0): int
    {
        $deadline = microtime(true) + 10;
        do {
            foreach (glob('/proc/[0-9]*/stat') ?: [] as $stat) {
                $fields = explode(' ', substr((string) @file_get_contents($stat), (int) strrpos((string) @file_get_contents($stat), ')') + 2));
                $pid = (int) basename(\dirname($stat));
                if ((int) ($fields[1] ?? 0) === $front && $pid !== $not && str_contains(self::proc($pid, 'cmdline'), '--role=delivery')) {
                    usleep(200_000); // past its start-up, into its loop

                    return $pid;
                }
            }
            usleep(20_000);
        } while (microtime(true) < $deadline);
        self::fail("No delivery worker under the front $front");
    }

    private static function proc(int $pid, string $file): string
    {
        return str_replace("\0", ' ', (string) @file_get_contents("/proc/$pid/$file"));
    }

    /** @return list<string> the socket inodes a process holds, as /proc/PID/fd links name them */
    private static function sockets(int $pid): array
    {
        $sockets = [];
        foreach (glob("/proc/$pid/fd/*") ?: [] as $fd) {
            $target = (string) @readlink($fd);
            if (str_starts_with($target, 'socket:')) {
                $sockets[] = $target;
            }
        }

        return $sockets;
    }

    private static function awaitFile(string $path): void
    {
        $deadline = microtime(true) + 10;
        while (!file_exists($path) && microtime(true) < $deadline) {
            usleep(20_000);
        }
        self::assertFileExists($path);
    }

    /** @return array<string, int> path => st_mode, everything under $dir */
    private static function modes(string $dir): array
    {
        $modes = [];
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($dir, \FilesystemIterator::SKIP_DOTS), \RecursiveIteratorIterator::SELF_FIRST);
        foreach ($files as $file) {
            \assert($file instanceof \SplFileInfo);
            $stat = lstat($file->getPathname());
            \assert($stat !== false);
            $modes[$file->getPathname()] = $stat['mode'] & 0o170777;
        }

        return $modes;
    }
}
