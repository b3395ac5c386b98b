<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use WarmHttp\Bench\Relay\FpmBench;
use WarmHttp\Bench\Relay\HopFloor;
use WarmHttp\Bench\Relay\Requirements;
use WarmHttp\Rig\Rig;

/**
 * The relay_sync first-call row's parts as the bench runs them: the hop floor's forwarder
 * (HopFloor, hop-floor.php) answers what it is written on a kept socket with the destination's
 * answer over one warm connection, and a short run of the row measures every mode.
 */
final class FirstCallRowTest extends TestCase
{
    public function testTheHopFloorForwardsOverOneKeptConnection(): void
    {
        $rig = Rig::shared();
        $floor = HopFloor::start(Requirements::caFile($rig));
        $path = '/fast?hop-floor=' . bin2hex(random_bytes(4));
        try {
            $socket = stream_socket_client($floor->address(), $errno, $errstr, 2);
            self::assertIsResource($socket, (string) $errstr);
            $url = $rig->nginx()->url('h2', $path);
            foreach ([1, 2, 3] as $_) {
                fwrite($socket, "GET {$url} HTTP/1.1\r\nHost: x\r\nX-WarmHttp-Mode: sync\r\n\r\n");
                self::assertSame([200, 'ok'], self::answer($socket));
            }
            fclose($socket);
        } finally {
            $floor->stop();
        }

        self::assertSame(3, $rig->nginx()->awaitRequests(3, $path));
        self::assertSame(1, $rig->nginx()->distinctConnections($rig->nginx()->port('h2'), $path), 'one kept connection');
    }

    public function testAShortRunMeasuresEveryMode(): void
    {
        $missing = Requirements::fpm() ?? Requirements::relay();
        if ($missing !== null) {
            self::markTestSkipped($missing);
        }

        $result = (new FpmBench())->firstCall(2, 5.0);

        foreach ([$result->sync, $result->preloadedSync, $result->relayOnly, $result->hopFloor] as $turn) {
            self::assertSame(2, $turn->n, 'the four take turns');
        }
        // Before each of the plain pool's six turns (the preloaded pool takes the other two)
        // both its workers serve a cold call, and the cold row counts those: 6 × 2.
        self::assertSame(12, $result->cold->n, 'a cold call per worker before each plain-pool turn');
        self::assertSame(8, $result->warmFloor->n);
        self::assertGreaterThan(5.0, $result->hopFloor->p50, 'a whole RTT through the rig proxy');
        self::assertLessThan($result->cold->p50, $result->hopFloor->p50, 'over a warm connection');
    }

    /**
     * @param resource $socket
     *
     * @return array{int, string}
     */
    private static function answer($socket): array
    {
        $answer = '';
        while (($end = strpos($answer, "\r\n\r\n")) === false || preg_match('/Content-Length: (\d+)/', $answer, $m) !== 1 || \strlen($answer) < $end + 4 + (int) $m[1]) {
            $chunk = fread($socket, 8192);
            self::assertNotFalse($chunk);
            self::assertFalse($chunk === '' && feof($socket), 'the forwarder closed: ' . $answer);
            $answer .= $chunk;
        }

        return [(int) substr($answer, 9, 3), trim(substr($answer, $end + 4))];
    }
}
