<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * One bad caller (or a thousand) against a real relay: the front's CPU and memory stay bounded
 * and the other callers keep being served. Destinations are loopback only: localhost (from
 * /etc/hosts, allowed) on a closed port, or 127.0.0.1 (refused by the guard).
 */
final class RelayFloodTest extends TestCase
{
    private const DISPATCH = "POST http://localhost:1/flood HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi";

    public function testAMegabyteInOneByteChunksCostsLinearTimeAndOtherCallersKeepTheirPace(): void
    {
        $relay = RelayProcess::start(['--allow-host=localhost']);
        $attacker = RelayFrontCaller::connect($relay->address());
        $other = RelayFrontCaller::connect($relay->address());
        $cpuBefore = self::cpuSeconds($relay->pid());
        $attacker->send("POST http://localhost:1/chunks HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
        $latencies = [];
        // 1 MiB of 1-byte chunks is 6 MiB on the wire: 96 writes of 64 KiB, a dispatch between.
        $slice = str_repeat("1\r\nx\r\n", intdiv(65536, 6));
        for ($sent = 0; $sent < 1 << 20; $sent += \strlen($slice) / 6) {
            $attacker->send($slice, 20.0);
            $started = hrtime(true);
            $other->send(self::DISPATCH);
            self::assertStringStartsWith('HTTP/1.1 202 ', $other->answer(20.0));
            $latencies[] = (hrtime(true) - $started) / 1e6;
        }
        $attacker->send("0\r\n\r\n");
        $answer = $attacker->answer(20.0);
        $cpu = self::cpuSeconds($relay->pid()) - $cpuBefore;
        sort($latencies);

        self::assertStringStartsWith('HTTP/1.1 202 ', $answer);
        self::assertLessThan(3.0, $cpu, "front CPU for 1 MiB in 1-byte chunks (it was 72 s): {$cpu} s");
        self::assertLessThan(50.0, $latencies[intdiv(\count($latencies), 2)], 'the other caller\'s median dispatch, ms (it was 400)');
        $relay->remove();
    }

    private static function descriptors(int $pid): int
    {
        return \count(scandir('/proc/' . $pid . '/fd') ?: []) - 2;
    }

    /** The fewest descriptors the process held while waiting (up to $seconds) to see fewer than $below. */
    private static function descriptorsSettled(int $pid, int $below, float $seconds): int
    {
        $deadline = microtime(true) + $seconds;
        do {
            $held = self::descriptors($pid);
            $fewest = min($fewest ?? $held, $held);
            usleep(50_000);
        } while ($fewest >= $below && microtime(true) < $deadline);

        return $fewest;
    }

    public function testAThousandIdleConnectionsNeitherSpinTheFrontNorShutOutANewCaller(): void
    {
        $relay = RelayProcess::start();
        // What the front holds before any caller: its own files and sockets, and whatever it
        // inherited from the process that started it (this test runner's kept sockets, in a
        // full suite run: PHP does not open them close-on-exec).
        $own = self::descriptors($relay->pid());
        $idle = [];
        for ($i = 0; $i < 1100; ++$i) {
            $idle[] = RelayFrontCaller::connect($relay->address(), 5.0);
        }
        usleep(300_000);
        $answers = array_map(static fn(RelayFrontCaller $c): string => substr($c->answer(0.001), 0, 13), $idle);
        // Callers past the cap are answered 503 and closed in batches: on a loaded machine the
        // last of them may still be closing when first counted, so count until it settles.
        $held = self::descriptorsSettled($relay->pid(), $own + 400 + 10, 2.0) - $own;
        $cpuBefore = self::cpuSeconds($relay->pid());
        usleep(2_000_000);
        $cpu = self::cpuSeconds($relay->pid()) - $cpuBefore;

        self::assertLessThan(400 + 10, $held, 'at most 400 callers held (the descriptors the front held before them left out)');
        self::assertGreaterThanOrEqual(600, \count(array_keys($answers, 'HTTP/1.1 503 ', true)), 'past the cap, callers are told 503');
        self::assertLessThan(0.5, $cpu, 'the front does not spin with its connections at the cap (it spun at 100%)');
        // Idle for over a second, the oldest silent connection gives its place to a new caller.
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'a new caller is served at once');
        $timedOut = 0;
        foreach ($idle as $caller) {
            $timedOut += str_starts_with($caller->answer(0.001), 'HTTP/1.1 408 ') ? 1 : 0;
        }
        self::assertSame(0, $timedOut, 'not yet');
        usleep(8_500_000);
        foreach ($idle as $caller) {
            $timedOut += str_starts_with($caller->answer(0.001), 'HTTP/1.1 408 ') ? 1 : 0;
        }
        self::assertGreaterThan(300, $timedOut, 'the silent ones are answered 408 after the head timeout (10 s)');
        $relay->remove();
    }

    public function testAHeadTricklingInIsCutOffAfterTheHeadTimeout(): void
    {
        $relay = RelayProcess::start();
        $slow = RelayFrontCaller::connect($relay->address());
        $slow->send("POST http://localhost:1/slow HTTP/1.1\r\n");
        $started = microtime(true);
        $answer = '';
        while ($answer === '' && microtime(true) - $started < 15) {
            $slow->offer("X-Slow: 1\r\n");
            $answer = $slow->answer(1.0);
            self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'others are served meanwhile');
        }

        self::assertStringStartsWith('HTTP/1.1 408 ', $answer);
        self::assertStringContainsString('did not arrive within 10 s', $answer);
        self::assertEqualsWithDelta(10.0, microtime(true) - $started, 2.5);
        self::assertTrue($slow->closedWithin(2.0));
        $relay->remove();
    }

    public function testBodiesHeldOpenByManyCallersStayWithinTheInputBudget(): void
    {
        $relay = RelayProcess::start();
        $holders = [];
        for ($i = 0; $i < 60; ++$i) {
            $holders[$i] = RelayFrontCaller::connect($relay->address());
            $holders[$i]->send("POST http://127.0.0.1:1/held HTTP/1.1\r\nContent-Length: 9437184\r\n\r\n");
        }
        // 8 of the 9 MiB on every connection: 480 MiB in all, as far as the relay reads.
        $offered = self::offer($holders, array_fill(0, 60, 0), 8 << 20, static fn(): bool => false, 1.0);
        $rss = self::rssBytes($relay->pid());

        self::assertLessThan(360 << 20, $rss, \sprintf('front RSS with 480 MiB of bodies offered: %d MiB (budget 256 MiB)', $rss >> 20));
        self::assertStringStartsWith('HTTP/1.1 403 ', $relay->raw("POST http://127.0.0.1:1/small HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi"), 'a small request is still read and answered');
        // The rest of every body: the relay reads the connection holding most, answers it, and
        // so on, until every held request is answered.
        $answers = [];
        self::offer($holders, $offered, 9 << 20, static function (int $i, RelayFrontCaller $holder) use (&$answers): bool {
            $answer = isset($answers[$i]) ? '' : $holder->answer(0.001);
            if ($answer !== '') {
                $answers[$i] = substr($answer, 0, 13);
            }

            return \count($answers) === 60;
        }, 10.0);
        $answers += array_fill(0, 60, 'none');
        ksort($answers);
        self::assertSame(array_fill(0, 60, 'HTTP/1.1 403 '), $answers, 'every held body, once complete, is read and answered');
        $relay->remove();
    }

    /**
     * Offers body bytes on every connection up to $upTo each, until $done says so, the relay
     * has read nothing for $stallSeconds, or a minute.
     *
     * @param array<int, RelayFrontCaller> $holders
     * @param array<int, int> $offered bytes already offered on each
     * @param \Closure(int, RelayFrontCaller): bool $done
     *
     * @return array<int, int> bytes offered on each
     */
    private static function offer(array $holders, array $offered, int $upTo, \Closure $done, float $stallSeconds): array
    {
        $chunk = str_repeat('b', 1 << 20);
        $deadline = microtime(true) + 60;
        $lastProgress = microtime(true);
        while (microtime(true) - $lastProgress < $stallSeconds && microtime(true) < $deadline) {
            foreach ($holders as $i => $holder) {
                $written = $offered[$i] < $upTo ? $holder->offer(substr($chunk, 0, min(1 << 20, $upTo - $offered[$i]))) : 0;
                $offered[$i] += $written;
                $lastProgress = $written > 0 ? microtime(true) : $lastProgress;
                if ($done($i, $holder)) {
                    return $offered;
                }
            }
            usleep(1000);
        }

        return $offered;
    }

    public function testAFailingSelectIsLoggedAndPausedNotSpun(): void
    {
        // Started with 1,100 inherited descriptors, the relay's own sockets are numbered past
        // FD_SETSIZE: every stream_select() fails. The old loop retried at once, at 100% CPU.
        $dir = TempDir::create('flood-fds');
        $relay = new Process(['bash', '-c', 'for i in $(seq 1 1100); do exec {fd}</dev/null; done; exec "$@"', 'relay', \PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite')]);
        $relay->start();
        $deadline = microtime(true) + 10;
        while (!str_contains($relay->getErrorOutput(), 'Waiting on the sockets failed') && $relay->isRunning() && microtime(true) < $deadline) {
            usleep(50_000);
        }
        $pid = (int) $relay->getPid();
        $cpuBefore = self::cpuSeconds($pid);
        usleep(2_000_000);
        $cpu = self::cpuSeconds($pid) - $cpuBefore;
        $relay->signal(\SIGTERM);
        $exit = $relay->wait();
        $dir->remove();

        self::assertStringContainsString('FD_SETSIZE', $relay->getErrorOutput(), 'the log says why');
        self::assertLessThan(0.3, $cpu, 'no spin while select keeps failing');
        self::assertSame(0, $exit, 'and SIGTERM still stops it cleanly');
    }

    /** User and system CPU time of a process, from /proc/<pid>/stat (clock ticks of 1/100 s). */
    private static function cpuSeconds(int $pid): float
    {
        $stat = (string) file_get_contents("/proc/$pid/stat");
        $fields = explode(' ', substr($stat, (int) strrpos($stat, ')') + 2));

        return ((int) $fields[11] + (int) $fields[12]) / 100;
    }

    private static function rssBytes(int $pid): int
    {
        preg_match('/^VmRSS:\s+(\d+) kB/m', (string) file_get_contents("/proc/$pid/status"), $m);

        return (int) ($m[1] ?? 0) * 1024;
    }
}
