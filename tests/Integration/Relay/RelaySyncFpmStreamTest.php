<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;

/**
 * relay_sync's kept stream under real PHP-FPM: a worker connects to the relay once and keeps
 * the socket across FPM requests (no connect, no accept per request), shares it with
 * dispatch(), and finds it dead after a relay restart before writing on it.
 */
final class RelaySyncFpmStreamTest extends TestCase
{
    public function testAWorkerKeepsOneRelayConnectionAcrossRequestsAndRestarts(): void
    {
        $rig = Rig::shared();
        $nginx = $rig->nginx();
        $relay = RelayProcess::start(['--allow-private-networks']);
        $fpm = PhpFpm::start(__DIR__ . '/fpm-stream', 1, ['WARMHTTP_RELAY' => $relay->address(), 'WARMHTTP_UPSTREAM' => rtrim($nginx->url('plain', '/'), '/')]);
        try {
            $first = self::call($fpm, '/stream.php');
            self::assertSame([200, false], [$first['status'], $first['reused']], 'the first FPM request connects');
            foreach (['/stream.php', '/stream.php?dispatch=1', '/stream.php'] as $path) {
                $later = self::call($fpm, $path);
                self::assertSame([200, true, $first['pid']], [$later['status'], $later['reused'], $later['pid']], $path . ': the same worker, its kept connection');
            }

            $relay->terminate();
            $relay->launch();

            $afterRestart = self::call($fpm, '/stream.php');
            self::assertSame([200, false], [$afterRestart['status'], $afterRestart['reused']], 'a new connection, found before writing');
            self::assertSame([200, true], array_values(array_intersect_key(self::call($fpm, '/stream.php'), ['status' => 0, 'reused' => 0])));
            self::assertStringNotContainsString('hand-off failed', $fpm->errorLog());
        } finally {
            $fpm->stop();
            $relay->remove();
        }
    }

    /** @return array{status: ?int, reused: ?bool, pid: int} */
    private static function call(PhpFpm $fpm, string $path): array
    {
        $body = (string) file_get_contents($fpm->url($path));
        $answer = json_decode($body, true);
        self::assertIsArray($answer, $body . $fpm->errorLog());

        /** @var array{status: ?int, reused: ?bool, pid: int} $answer */
        return $answer;
    }
}
