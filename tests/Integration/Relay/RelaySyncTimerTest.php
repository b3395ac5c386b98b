<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use WarmHttp\Rig\Rig;

/**
 * The front gives curl a round when one of its sockets wakes select, and for its timers at
 * least every WATCHED_WAIT_SECONDS however busy the callers keep select: a sync request whose
 * destination stays silent gets its timeout answer while another caller talks to the relay
 * without pause (its requests are the relay's own, so curl's sockets never wake select).
 * Against the rig's nginx over TLS + HTTP/2. Judged by the answer, not by its time.
 */
final class RelaySyncTimerTest extends RelaySyncTestCase
{
    public function testASilentDestinationTimesOutWhileAnotherCallerKeepsTheFrontBusy(): void
    {
        $rig = Rig::shared();
        $warm = $this->syncCaller($rig->nginx()->url('h2', '/fast'), 10);
        self::assertStringStartsWith('HTTP/1.1 200 ', $this->answerOf($warm));

        $waiting = $this->syncCaller($rig->nginx()->url('h2', '/slow?ms=4000'), 1);
        $busy = stream_socket_client('unix://' . self::relay()->socketPath(), $errno, $errstr, 2);
        self::assertNotFalse($busy, (string) $errstr);
        $answer = '';
        // The relay answers 1 s after the Client would have given up (SyncSettings' backstop): at
        // ~50 µs a request, a bound by count alone ran out first; bounded by time, and by count.
        $deadline = microtime(true) + 10.0;
        for ($requests = 0; $requests < 1_000_000 && microtime(true) < $deadline && !str_contains($answer, "\r\n\r\n"); ++$requests) {
            fwrite($busy, "GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n");
            self::assertStringContainsString("ok\n", (string) fread($busy, 65536));
            $read = [$waiting];
            $write = $except = null;
            if (stream_select($read, $write, $except, 0) === 1) {
                $answer .= (string) fread($waiting, 65536);
            }
        }

        self::assertStringStartsWith('HTTP/1.1 504 ', $answer, 'the transfer timed out while the busy caller was served');
        self::assertStringContainsString("\r\nX-WarmHttp-Failure: timeout ", $answer);
    }

    /** @return resource a caller that sent one sync GET with this timeout, seconds */
    private function syncCaller(string $url, int $timeout)
    {
        $caller = stream_socket_client('unix://' . self::relay()->socketPath(), $errno, $errstr, 2);
        self::assertNotFalse($caller, (string) $errstr);
        fwrite($caller, "GET {$url} HTTP/1.1\r\nHost: " . parse_url($url, \PHP_URL_HOST) . ':' . parse_url($url, \PHP_URL_PORT)
            . "\r\nX-WarmHttp-Mode: sync\r\nX-WarmHttp-Transfer: verify=1; cafile=" . rawurlencode(Rig::shared()->caFile()) . "; timeout={$timeout}\r\n\r\n");

        return $caller;
    }

    /** @param resource $caller */
    private function answerOf($caller): string
    {
        $answer = '';
        while (!str_contains($answer, "\r\n\r\n")) {
            $chunk = fread($caller, 65536);
            self::assertNotFalse($chunk);
            self::assertNotSame('', $chunk, 'the relay closed the connection');
            $answer .= $chunk;
        }

        return $answer;
    }
}
