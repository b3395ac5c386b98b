<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Client;
use WarmHttp\Rig\TempDir;

/**
 * The limits on retrying, against a real relay and an origin that always fails: --max-age
 * gives up by age, --retry-cap bounds every delay whatever --retry-base says, --max-attempts
 * gives up by count, and nonsense values are refused at start.
 */
final class RelayRetryLimitsTest extends TestCase
{
    public function testMaxAgeDeadLettersAfterRetryingUntilTheNextAttemptWouldBeTooLate(): void
    {
        $origin = FlakyOrigin::start(503);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.2', '--retry-cap=0.5', '--max-age=2']);
        $client = new Client(['relay' => $relay->address()]);
        $client->dispatch($client->createRequest('POST', $origin->url('/too-old'))->withBody($client->createStream('x')));

        $dead = $relay->awaitDeadLetters();
        self::assertCount(1, $dead, 'dead-lettered well within max-age plus a retry delay');
        self::assertStringContainsString('HTTP 503', $dead[0]['last_error']);
        self::assertStringContainsString('the maximum age of 2s', $dead[0]['last_error']);
        $requests = $origin->requests();
        self::assertGreaterThan(1, \count($requests), 'retried before giving up');
        self::assertSame(\count($requests), $dead[0]['attempts']);
        // It gives up once now + the next delay (at most the 0.5 s cap) passes 2 s: not before
        // 1.5 s (less the moment between spooling and the first attempt), and not much after 2 s.
        $givenUpAfter = $dead[0]['failed_at'] - $requests[0]['time'];
        self::assertGreaterThan(2 - 0.5 - 0.5, $givenUpAfter);
        self::assertLessThan(2 + 0.5 + 5, $givenUpAfter, 'generous: the box is noisy');

        $status = json_decode($relay->command('relay:status', ['--json', '--socket=' . $relay->socketPath()])->getOutput(), true);
        self::assertIsArray($status);
        self::assertSame([0, 1, 1], [$status['pending'], $status['dead'], $status['dead_lettered']]);
        self::assertStringContainsString('maximum age', $relay->command('relay:failed')->getOutput());
        $relay->remove();
    }

    public function testRetryCapBoundsEveryDelayWhateverTheBaseAndMaxAttemptsStopsIt(): void
    {
        $origin = FlakyOrigin::start(503);
        // Uncapped, a 5 s base would wait up to 5 + 10 + 20 + 40 s across four retries.
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=5', '--retry-cap=0.2', '--max-attempts=5']);
        $client = new Client(['relay' => $relay->address()]);
        $client->dispatch($client->createRequest('POST', $origin->url('/capped'))->withBody($client->createStream('x')));

        self::assertTrue($origin->await(static fn(array $r): bool => \count($r) >= 5, 10.0), 'five attempts within 10 s');
        $dead = $relay->awaitDeadLetters();
        self::assertCount(1, $dead);
        self::assertSame(5, $dead[0]['attempts']);
        self::assertStringContainsString('HTTP 503; gave up after 5 attempts', $dead[0]['last_error']);
        self::assertCount(5, $origin->requests(), 'no attempt after giving up');

        $delays = self::scheduledDelays($relay->log());
        self::assertCount(4, $delays, 'four retries were scheduled');
        foreach ($delays as $delay) {
            self::assertLessThanOrEqual(0.2, $delay, 'every delay within --retry-cap');
        }
        $relay->remove();
    }

    /** @return iterable<string, array{string, string}> */
    public static function badValues(): iterable
    {
        yield 'negative cap' => ['--retry-cap=-1', '--retry-cap must be a number of seconds > 0, got "-1"'];
        yield 'zero cap: a tight retry loop' => ['--retry-cap=0', '--retry-cap must be a number of seconds > 0, got "0"'];
        yield 'zero base: a tight retry loop' => ['--retry-base=0', '--retry-base must be a number of seconds > 0, got "0"'];
        yield 'word for an age' => ['--max-age=abc', '--max-age must be a number of seconds > 0, got "abc"'];
        yield 'zero age: never retries' => ['--max-age=0', '--max-age must be a number of seconds > 0, got "0"'];
        yield 'infinite age' => ['--max-age=1e999', '--max-age must be a number of seconds > 0, got "1e999"'];
        yield 'empty base' => ['--retry-base=', '--retry-base must be a number of seconds > 0, got ""'];
        yield 'negative attempts' => ['--max-attempts=-1', '--max-attempts must be a whole number >= 0, got "-1"'];
        yield 'fractional attempts' => ['--max-attempts=2.5', '--max-attempts must be a whole number >= 0, got "2.5"'];
    }

    #[DataProvider('badValues')]
    public function testABadValueIsRefusedAtStartNamingTheOption(string $option, string $error): void
    {
        $dir = TempDir::create('relay-bad');
        $relay = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite'), $option]);
        $relay->setTimeout(10);
        $relay->run();
        $dir->remove();

        self::assertSame(2, $relay->getExitCode(), $relay->getErrorOutput()); // Command::INVALID: wrong usage
        $log = json_decode(trim($relay->getErrorOutput()), true);
        self::assertIsArray($log, 'one JSON log line');
        self::assertSame(['critical', 'Relay cannot start', $error . '.'], [$log['level'], $log['msg'], $log['error']]);
    }

    /** @return list<float> retry_in_s of every "will retry" line the relay logged */
    private static function scheduledDelays(string $log): array
    {
        $delays = [];
        foreach (explode("\n", $log) as $line) {
            $record = json_decode($line, true);
            if (\is_array($record) && ($record['msg'] ?? null) === 'Delivery failed; will retry' && is_numeric($record['retry_in_s'] ?? null)) {
                $delays[] = (float) $record['retry_in_s'];
            }
        }

        return $delays;
    }
}
