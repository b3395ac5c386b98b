<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;

/**
 * relay_sync's kept stream under real PHP-FPM: a worker connects to the relay once and keeps
 * the socket across FPM requests (no connect, no accept per request), shares it with
 * dispatch(), finds it dead after a relay restart before writing on it, and leaves it when a
 * request died mid-answer.
 */
final class RelaySyncFpmStreamTest extends TestCase
{
    public function testAWorkerKeepsOneRelayConnectionAcrossRequestsAndRestarts(): void
    {
        self::withOneWorker(static function (PhpFpm $fpm, RelayProcess $relay): void {
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
        });
    }

    /**
     * A request that dies mid-answer (a fatal error) leaves the rest of its answer in the
     * worker's kept socket: the worker's next request must not read it as its own, and does not
     * (a new connection, its own answer).
     */
    public function testARequestThatDiesMidAnswerLeavesNothingForTheNext(): void
    {
        self::withOneWorker(static function (PhpFpm $fpm): void {
            $first = self::call($fpm, '/stream.php');
            $died = @file_get_contents($fpm->url('/dies.php'));
            self::assertStringNotContainsString('cannot show', (string) $died);
            self::assertStringContainsString('Allowed memory size', $fpm->errorLog(), 'it died reading its answer');

            $next = self::call($fpm, '/stream.php');
            self::assertSame([200, 'ok', false, $first['pid']], [$next['status'], $next['body'], $next['reused'], $next['pid']], 'the same worker, a new connection, its own answer');
            self::assertSame([200, true], array_values(array_intersect_key(self::call($fpm, '/stream.php'), ['status' => 0, 'reused' => 0])));
        });
    }

    /**
     * Runs $test against one FPM worker serving fpm-stream/ through a relay of its own.
     *
     * @param \Closure(PhpFpm, RelayProcess): void $test
     */
    private static function withOneWorker(\Closure $test): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        $fpm = PhpFpm::start(__DIR__ . '/fpm-stream', 1, ['WARMHTTP_RELAY' => $relay->address(), 'WARMHTTP_UPSTREAM' => rtrim(Rig::shared()->nginx()->url('plain', '/'), '/')]);
        try {
            $test($fpm, $relay);
        } finally {
            $fpm->stop();
            $relay->remove();
        }
    }

    /** @return array{status: ?int, body: ?string, reused: ?bool, pid: int} */
    private static function call(PhpFpm $fpm, string $path): array
    {
        $body = (string) file_get_contents($fpm->url($path));
        $answer = json_decode($body, true);
        self::assertIsArray($answer, $body . $fpm->errorLog());

        /** @var array{status: ?int, body: ?string, reused: ?bool, pid: int} $answer */
        return $answer;
    }
}
