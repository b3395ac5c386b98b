<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use WarmHttp\Rig\Rig;

/**
 * While sync transfers wait for their answers, the front sleeps on curl's sockets with its
 * callers' (UpstreamSockets) instead of polling curl: its CPU stays near nothing however long
 * the destination takes, and each answer still goes out as soon as it arrives. Against the
 * rig's nginx over TLS + HTTP/2, several callers at once on the relay's warm connection.
 */
final class RelaySyncWaitTest extends RelaySyncTestCase
{
    /**
     * Polling every 0.2 ms cost the front ~5000 loop turns a second; waiting on the socket
     * costs a turn per answer and one per 50 ms for curl's timers.
     */
    private const MAX_FRONT_CPU_SECONDS = 0.05;

    public function testAnAnswerThatTakesASecondCostsTheFrontAlmostNoCpu(): void
    {
        $this->warmUp();
        $cpuBefore = $this->frontCpuSeconds();
        $started = hrtime(true);

        $answers = $this->exchange(['/slow?ms=1000']);

        $elapsed = (hrtime(true) - $started) / 1e9;
        self::assertSame(200, $answers[0]);
        self::assertLessThan(1.5, $elapsed, 'the answer went out when it arrived');
        self::assertLessThan(self::MAX_FRONT_CPU_SECONDS, $this->frontCpuSeconds() - $cpuBefore, 'the front slept while the transfer waited');
    }

    public function testCallersWaitingTogetherEachGetTheirAnswerWhenItArrives(): void
    {
        $this->warmUp();
        $cpuBefore = $this->frontCpuSeconds();
        $started = hrtime(true);

        $answers = $this->exchange(['/slow?ms=600', '/slow?ms=300', '/fast', '/slow?ms=900']);

        self::assertSame([200, 200, 200, 200], $answers);
        self::assertLessThan(1.4, (hrtime(true) - $started) / 1e9, 'the four waited together, not one after another');
        self::assertLessThan(self::MAX_FRONT_CPU_SECONDS, $this->frontCpuSeconds() - $cpuBefore);
    }

    /** The upstream connection is open and its socket found before the measured part. */
    private function warmUp(): void
    {
        self::assertSame([200, 200], $this->exchange(['/fast', '/fast']));
    }

    /**
     * Sends one sync GET per path at once, each on a connection of its own, and waits for
     * every answer.
     *
     * @param list<string> $paths
     *
     * @return list<int> the statuses, in the order of $paths
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
            $callers[] = $caller;
        }
        $statuses = [];
        foreach ($callers as $caller) {
            stream_set_timeout($caller, 5);
            $answer = (string) stream_get_contents($caller);
            fclose($caller);
            $statuses[] = (int) substr($answer, 9, 3);
        }

        return $statuses;
    }

    /** The front's user and system CPU so far, from /proc (clock ticks of 10 ms). */
    private function frontCpuSeconds(): float
    {
        $stat = (string) file_get_contents('/proc/' . self::relay()->pid() . '/stat');
        $fields = explode(' ', substr($stat, (int) strrpos($stat, ')') + 2));

        return ((int) $fields[11] + (int) $fields[12]) / 100;
    }
}
