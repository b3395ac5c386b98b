<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\Nginx;
use WarmHttp\Rig\Rig;
use WarmHttp\Rig\TempDir;

/**
 * The front's loop under stress: SIGTERM in the middle of a burst of dispatches, and token
 * guessing on the TCP listener. Real relay processes, raw sockets, loopback only.
 */
final class RelayFrontTest extends TestCase
{
    private const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0ff0e1d2c3b4a5968778695a4b3c2d1e0f';

    private const CALLERS = 32;

    private const MAX_SENT = 2000;

    public function testSigtermDuringABurstExitsZeroAndEveryAcknowledgedDispatchIsDelivered(): void
    {
        $nginx = Rig::shared()->nginx();
        $tag = bin2hex(random_bytes(4));
        for ($run = 1; $run <= 5; ++$run) {
            $dir = TempDir::create('front-sigterm');
            $relay = self::launch($dir, ['--allow-private-networks', '--max-per-host=8']);
            $acked = self::burstUntilClosed($dir->path('relay.sock'), $nginx->url('plain', "/echo/front-sigterm-$tag-$run-"), $relay);
            $exit = $relay->wait();

            self::assertSame(0, $exit, "run $run: the front exits 0 on SIGTERM under load\n" . $relay->getErrorOutput());
            self::assertGreaterThan(20, \count($acked), "run $run: the burst was under way when the signal came");
            // Whatever the drain did not deliver is on the spool: a restart delivers it.
            $restarted = RelayProcess::start(['--allow-private-networks', '--max-per-host=8'], $dir->path('spool.sqlite'));
            $missing = self::awaitDelivered($nginx, $acked, 60.0);
            $log = $restarted->log();
            $restarted->remove();
            self::assertSame([], $missing, \sprintf("run %d: every 202-acknowledged dispatch is delivered (%d acknowledged, %d missing, e.g. %s)\n%s\n%s", $run, \count($acked), \count($missing), implode(' ', \array_slice($missing, 0, 5)), substr($relay->getErrorOutput(), -3000), substr($log, -3000)));
            $dir->remove();
        }
    }

    public function testAWrongTokenClosesTheConnectionAndMetricsNeedTheTokenOnTcp(): void
    {
        [$relay, $tcp] = self::tcpRelay();
        $guess = RelayFrontCaller::connect($tcp);
        $guess->send(str_repeat("GET /healthz HTTP/1.1\r\nX-WarmHttp-Token: wrong\r\n\r\n", 2));

        self::assertStringStartsWith('HTTP/1.1 401 ', $guess->answer());
        self::assertTrue($guess->closedWithin(2.0), 'one guess per connection');
        self::assertSame('', $guess->answer(0.2), 'the pipelined second guess is never answered');
        self::assertStringStartsWith('HTTP/1.1 401 ', self::ask($tcp, "GET /metrics HTTP/1.1\r\n\r\n"), 'no token, no metrics on TCP');
        self::assertStringStartsWith('HTTP/1.1 200 ', self::ask($tcp, "GET /metrics HTTP/1.1\r\nX-WarmHttp-Token: " . self::TOKEN . "\r\n\r\n"));
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /metrics HTTP/1.1\r\n\r\n"), 'on the unix socket the file mode is the check');
        $relay->remove();
    }

    public function testTenWrongTokensBlockTokenChecksForTenSeconds(): void
    {
        [$relay, $tcp] = self::tcpRelay();
        for ($i = 0; $i < 10; ++$i) {
            self::assertStringStartsWith('HTTP/1.1 401 ', self::ask($tcp, "GET /healthz HTTP/1.1\r\nX-WarmHttp-Token: guess-$i\r\n\r\n"));
        }
        $blocked = self::ask($tcp, "GET /healthz HTTP/1.1\r\nX-WarmHttp-Token: " . self::TOKEN . "\r\n\r\n");

        self::assertStringStartsWith('HTTP/1.1 429 ', $blocked, 'even the right token waits: a guess must not succeed during the block');
        self::assertMatchesRegularExpression('/\r\nRetry-After: (10|9|8)\r\n/', $blocked);
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'the unix socket is not blocked');
        usleep(10_500_000);
        self::assertStringStartsWith('HTTP/1.1 200 ', self::ask($tcp, "GET /healthz HTTP/1.1\r\nX-WarmHttp-Token: " . self::TOKEN . "\r\n\r\n"), 'checked again after the block');
        $relay->remove();
    }

    /**
     * @param list<string> $paths
     *
     * @return list<string> the paths nginx has not logged after $timeout
     */
    private static function awaitDelivered(Nginx $nginx, array $paths, float $timeout): array
    {
        $deadline = microtime(true) + $timeout;
        do {
            $missing = array_values(array_diff($paths, array_column($nginx->accessLog(), 'uri')));
            if ($missing === []) {
                return [];
            }
            usleep(200_000);
        } while (microtime(true) < $deadline);

        return $missing;
    }

    /** @return array{RelayProcess, string} the relay and its TCP address */
    private static function tcpRelay(): array
    {
        $port = FreePort::pick();
        // From a file, not argv: the token must not show in ps.
        $file = tempnam(sys_get_temp_dir(), 'relay-token');
        file_put_contents($file, self::TOKEN);
        chmod($file, 0o600);
        try {
            $relay = RelayProcess::start(["--tcp=127.0.0.1:$port", '--token-file=' . $file]);
        } finally {
            unlink($file);
        }

        return [$relay, "tcp://127.0.0.1:$port"];
    }

    private static function ask(string $address, string $request): string
    {
        $caller = RelayFrontCaller::connect($address);
        $caller->send($request);

        return $caller->answer();
    }

    /** @param list<string> $options */
    private static function launch(TempDir $dir, array $options): Process
    {
        $process = new Process([\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite'), ...$options]);
        $process->setTimeout(null);
        $process->start();
        $deadline = microtime(true) + 10;
        while (($probe = @stream_socket_client('unix://' . $dir->path('relay.sock'), $errno, $errstr, 0.2)) === false) {
            if (!$process->isRunning() || microtime(true) > $deadline) {
                throw new \RuntimeException('The relay did not start: ' . $process->getErrorOutput());
            }
            usleep(10_000);
        }
        fclose($probe);

        return $process;
    }

    /**
     * Dispatches on many short connections (one request each, as callers without a kept socket
     * send them, so the front is accepting when the signal comes); SIGTERM once 50 are
     * acknowledged; on until the relay takes no more connections (or MAX_SENT were sent).
     *
     * @return list<string> the paths the relay acknowledged with a 202
     */
    private static function burstUntilClosed(string $socket, string $urlPrefix, Process $relay): array
    {
        $slots = [];
        $sent = 0;
        $acked = [];
        $signalled = false;
        $deadline = microtime(true) + 30;
        do {
            while (\count($slots) < self::CALLERS && $sent < self::MAX_SENT && ($caller = @stream_socket_client('unix://' . $socket, $errno, $errstr, 1.0)) !== false) {
                $url = $urlPrefix . $sent++;
                // Connected into the backlog of a front that closes its listener to drain: the
                // write may fail (EPIPE), and that caller then simply gets no 202.
                @fwrite($caller, "POST $url HTTP/1.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                $slots[] = [$caller, (string) parse_url($url, \PHP_URL_PATH)];
            }
            [$caller, $path] = array_shift($slots) ?? [null, ''];
            if ($caller !== null && str_starts_with((string) stream_get_contents($caller), 'HTTP/1.1 202 ')) {
                $acked[] = $path;
            }
            if (!$signalled && \count($acked) >= 50) {
                $relay->signal(\SIGTERM); // and keep connecting while it drains
                $signalled = true;
            }
        } while ($slots !== [] && microtime(true) < $deadline);

        return $acked;
    }
}
