<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use WarmHttp\Rig\Rig;

/**
 * While sync transfers wait for their answers, the front sleeps on curl's sockets with its
 * callers' (UpstreamSockets) instead of polling curl: it wakes a handful of times however long
 * the destination takes, and answers that wait together go out in the order they arrive.
 * Against the rig's nginx over TLS + HTTP/2, several callers at once on the relay's warm
 * connection. Counted in wake-ups and arrival order, not in time.
 */
final class RelaySyncWaitTest extends RelaySyncTestCase
{
    /**
     * Polling every 0.2 ms woke the front thousands of times in a second (c6df5f4); waiting
     * on the socket costs a wake-up per answer and one per 50 ms for curl's timers.
     */
    private const MAX_FRONT_WAKEUPS = 200;

    public function testAnAnswerThatTakesASecondWakesTheFrontAHandfulOfTimes(): void
    {
        $this->warmUp();
        $wakeUpsBefore = $this->frontWakeUps();

        [$statuses] = $this->exchange(['/slow?ms=1000']);

        self::assertSame([200], $statuses);
        self::assertLessThan(self::MAX_FRONT_WAKEUPS, $this->frontWakeUps() - $wakeUpsBefore, 'the front slept while the transfer waited');
    }

    public function testCallersWaitingTogetherEachGetTheirAnswerWhenItArrives(): void
    {
        $this->warmUp();
        $wakeUpsBefore = $this->frontWakeUps();

        [$statuses, $order] = $this->exchange(['/slow?ms=600', '/slow?ms=300', '/fast', '/slow?ms=900']);

        self::assertSame([200, 200, 200, 200], $statuses);
        self::assertSame([2, 1, 0, 3], $order, 'the four waited together, each answered as it came, not one after another');
        self::assertLessThan(self::MAX_FRONT_WAKEUPS, $this->frontWakeUps() - $wakeUpsBefore);
    }

    /** The upstream connection is open and its socket found before the measured part. */
    private function warmUp(): void
    {
        self::assertSame([200, 200], $this->exchange(['/fast', '/fast'])[0]);
    }

    /**
     * Sends one sync GET per path at once, each on a connection of its own, and reads the
     * answers as they end.
     *
     * @param list<string> $paths
     *
     * @return array{list<int>, list<int>} the statuses in the order of $paths, and the indexes of $paths in the order their answers ended
     */
    private function exchange(array $paths): array
    {
        $rig = Rig::shared();
        $callers = [];
        foreach ($paths as $path) {
            $url = $rig->nginx()->url('h2', $path);
            $caller = stream_socket_client('unix://' . self::relay()->socketPath(), $errno, $errstr, 2);
            self::assertNotFalse($caller, (string) $errstr);
            fwrite($caller, "GET {$url} HTTP/1.1\r\nHost: " . parse_url($url, \PHP_URL_HOST) . ':' . parse_url($url, \PHP_URL_PORT)
                . "\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Transfer: verify=1; cafile=" . rawurlencode($rig->caFile()) . "; timeout=10\r\nConnection: close\r\n\r\n");
            stream_set_blocking($caller, false);
            $callers[] = $caller;
        }
        $answers = array_fill(0, \count($callers), '');
        $order = [];
        for ($rounds = 0; \count($order) < \count($callers) && $rounds < 10_000; ++$rounds) {
            $read = array_diff_key($callers, array_flip($order));
            $write = $except = null;
            self::assertNotFalse(stream_select($read, $write, $except, 5), 'select on the callers failed');
            self::assertNotSame([], $read, 'no answer came within 5 s');
            foreach ($read as $i => $caller) {
                $answers[$i] .= (string) fread($caller, 65536);
                if (feof($caller)) {
                    $order[] = $i; // Connection: close: the relay closes once the answer is whole
                    fclose($caller);
                }
            }
        }

        return [array_values(array_map(static fn(string $answer): int => (int) substr($answer, 9, 3), $answers)), $order];
    }

    /** How often the front has gone to sleep and been woken so far (voluntary context switches, /proc). */
    private function frontWakeUps(): int
    {
        $status = (string) file_get_contents('/proc/' . self::relay()->pid() . '/status');

        return preg_match('/^voluntary_ctxt_switches:\s+(\d+)$/m', $status, $m) === 1 ? (int) $m[1] : self::fail('no voluntary_ctxt_switches in /proc/PID/status');
    }
}
