<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Relay\Worker\SpoolClock;

/**
 * Issue 13 item 12: retries were scheduled on the wall clock, and a clock set a day back froze
 * them for a day. Within a process the worker no longer reads the wall clock (SpoolClock, unit
 * tested); across a restart it does not believe a clock behind the spool's last time. The
 * relay restarted here believes it is a day earlier (the test-only WARMHTTP_RELAY_TEST_CLOCK_OFFSET).
 */
final class RelayStorageClockTest extends TestCase
{
    public function testRetriesStayDueWhenTheRelayRestartsWithItsClockADayBack(): void
    {
        $origin = RelayStorageOrigin::start(503);
        $options = ['--allow-private-networks', '--retry-base=2', '--retry-cap=2'];
        $relay = RelayProcess::start($options);
        for ($i = 0; $i < 5; ++$i) {
            self::assertStringStartsWith('HTTP/1.1 202 ', $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: 0\r\n\r\n", $origin->url("/clock?id=$i"))));
        }
        $deadline = microtime(true) + 10;
        while (\count($origin->requests()) < 5 && microtime(true) < $deadline) {
            usleep(20_000);
        }
        self::assertSame(0, $relay->terminate(), 'each was tried once and is retrying');

        $dayBack = new Process(
            [\PHP_BINARY, RelayProcess::bin(), 'relay', '--socket=' . $relay->socketPath(), '--spool=' . $relay->spoolPath(), ...$options],
            null,
            $relay->environment() + [SpoolClock::TEST_OFFSET_ENV => '-86400'],
        );
        $dayBack->start();
        try {
            $origin->answer(200);
            self::assertCount(5, $origin->awaitDelivered(5, 15.0), 'retried within their 2 s backoff, not a day later; relay log: ' . $dayBack->getErrorOutput());
        } finally {
            $dayBack->stop(5, \SIGTERM);
            $relay->remove();
        }
    }
}
