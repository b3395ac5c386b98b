<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * The socket path as a clumsy operator or a hostile local user leaves it, against a real
 * `bin/warmhttp relay`; and a burst of callers arriving while the front is busy.
 */
final class RelaySocketPathTest extends TestCase
{
    /** An unprivileged user that owns nothing here (Debian's nobody). */
    private const OTHER_UID = 65534;

    private ?TempDir $dir = null;

    protected function tearDown(): void
    {
        $this->dir?->remove();
    }

    public function testARegularFileAtTheSocketPathStaysAndTheRelayDoesNotStart(): void
    {
        $socket = $this->path('relay.sock');
        file_put_contents($socket, 'an operator\'s notes');

        $relay = $this->relay($socket);

        self::assertSame(1, $relay->getExitCode());
        self::assertStringContainsString('Cannot listen on ' . $socket . ': a file is there, not a socket', $relay->getErrorOutput());
        self::assertSame('an operator\'s notes', file_get_contents($socket));
    }

    /** A local user who got to the path first and answers 202 there gets no relay behind it. */
    public function testASquattersLiveSocketIsRefusedNotReplaced(): void
    {
        if (posix_geteuid() !== 0) {
            self::markTestSkipped('Needs root to give the squatter\'s socket to another user.');
        }
        $socket = $this->path('relay.sock');
        $squatter = stream_socket_server('unix://' . $socket);
        self::assertNotFalse($squatter);
        chown($socket, self::OTHER_UID);

        $relay = $this->relay($socket);

        self::assertSame(1, $relay->getExitCode());
        self::assertStringContainsString('a socket owned by user "' . (posix_getpwuid(self::OTHER_UID)['name'] ?? '') . '" is there', self::error($relay));
        self::assertSame(self::OTHER_UID, fileowner($socket));
        fclose($squatter);
    }

    public function testADirectoryAnyoneMayWriteIsRefused(): void
    {
        mkdir($this->path('shared'));
        chmod($this->path('shared'), 0o777);

        $relay = $this->relay($this->path('shared/relay.sock'));

        self::assertSame(1, $relay->getExitCode());
        self::assertStringContainsString('which other users may write: they could replace the socket', $relay->getErrorOutput());
        self::assertFileDoesNotExist($this->path('shared/relay.sock'));
    }

    public function testTheSocketDirectoryTheRelayCreatesLetsTheWebServersGroupThrough(): void
    {
        $relay = RelayProcess::start([]);
        $nested = $relay->dir() . '/run/warmhttp';
        $process = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $nested . '/relay.sock', '--spool=' . $relay->dir() . '/other.sqlite']);
        $process->start();
        $deadline = microtime(true) + 10;
        while (!file_exists($nested . '/relay.sock') && $process->isRunning() && microtime(true) < $deadline) {
            usleep(20_000);
        }
        $process->stop(5, \SIGTERM);

        self::assertSame(0o750, fileperms($nested) & 0o777, $process->getErrorOutput());
        self::assertSame(0o750, fileperms($relay->dir() . '/run') & 0o777);
    }

    /**
     * 200 callers connect while the front is busy (stopped here, so none is accepted until all
     * have connected): every one is queued and gets its 202. With PHP's default backlog of 32,
     * a unix socket refused the 34th connect at once and that caller fell back.
     */
    public function testTwoHundredSimultaneousDispatchesAllGetTheir202(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        posix_kill($relay->pid(), \SIGSTOP);
        try {
            $callers = [];
            for ($i = 0; $i < 200; ++$i) {
                $caller = @stream_socket_client($relay->address(), $errno, $errstr, 1.0, \STREAM_CLIENT_CONNECT | \STREAM_CLIENT_ASYNC_CONNECT);
                if ($caller !== false) {
                    $callers[] = $caller;
                }
            }
        } finally {
            posix_kill($relay->pid(), \SIGCONT);
        }
        self::assertCount(200, $callers, 'connects refused while the front was busy');

        foreach ($callers as $i => $caller) {
            fwrite($caller, "POST http://127.0.0.1:9/burst?$i HTTP/1.1\r\nHost: 127.0.0.1:9\r\nContent-Length: 1\r\n\r\nx");
        }
        $statuses = [];
        foreach ($callers as $caller) {
            stream_set_timeout($caller, 10);
            $statuses[] = substr((string) fgets($caller), 0, 12);
            fclose($caller);
        }

        self::assertSame(['HTTP/1.1 202' => 200], array_count_values($statuses));
    }

    /** Why the relay did not start, from its JSON log line on stderr. */
    private static function error(Process $relay): string
    {
        $line = json_decode(trim($relay->getErrorOutput()), true);

        return \is_array($line) && \is_string($line['error'] ?? null) ? $line['error'] : $relay->getErrorOutput();
    }

    private function path(string $name): string
    {
        $this->dir ??= TempDir::create('socket-path');

        return $this->dir->path($name);
    }

    private function relay(string $socket): Process
    {
        $process = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $socket, '--spool=' . $this->path('spool.sqlite')]);
        $process->setTimeout(10);
        $process->run();

        return $process;
    }
}
