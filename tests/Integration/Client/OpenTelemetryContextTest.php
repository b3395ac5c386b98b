<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Symfony\Component\Process\Process;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * With open-telemetry/api and /sdk installed, the trace context flows into the fibers of
 * concurrently(): a span active before the call is the parent of spans started in its tasks,
 * each task keeps its own context while the fibers interleave on real requests, and OTel's
 * "not initialized OpenTelemetry context in fiber" warning never fires.
 *
 * The SDK lives in its own Composer project (otel/, installed by scripts/setup), and each
 * scenario runs in a child process with it: in the main dev dependencies the SDK's autoload
 * files ran on every PHP-FPM request of the benchmark.
 */
final class OpenTelemetryContextTest extends RigTestCase
{
    public function testASpanActiveBeforeConcurrentlyIsTheParentOfSpansInItsTasks(): void
    {
        $run = self::scenario('parent');

        self::assertSame(['ok', 'ok', 'ok'], $run['result']['bodies']);
        self::assertTrue($run['result']['caller_context_restored'], 'the caller\'s context is its own again');
        $spans = $run['spans'];
        for ($i = 0; $i < 3; ++$i) {
            self::assertSame($spans['parent']['id'], $spans["task $i"]['parent'], "task $i");
            self::assertSame($spans['parent']['trace'], $spans["task $i"]['trace']);
            self::assertSame($spans["task $i"]['id'], $spans["after request $i"]['parent'], "after request $i: its own task's span, not another fiber's");
        }
        self::assertSame([], $run['warnings']);
    }

    public function testTasksWithoutAnActiveSpanStartRootSpansQuietly(): void
    {
        $run = self::scenario('root');

        self::assertFalse($run['spans']['alone']['parent_valid']);
        self::assertSame([], $run['warnings']);
    }

    public function testAListenerThatTracesRequestsParentsEachClientSpanToItsTask(): void
    {
        $spans = self::scenario('listener')['spans'];

        self::assertSame($spans['task a']['id'], $spans['HTTP /echo/a']['parent']);
        self::assertSame($spans['task b']['id'], $spans['HTTP /echo/b']['parent']);
        self::assertSame(200, $spans['HTTP /echo/a']['status_code']);
    }

    /**
     * @return array{spans: array<string, array{id: string, parent: string, parent_valid: bool, trace: string, status_code: mixed}>, warnings: list<string>, result: array<string, mixed>}
     */
    private static function scenario(string $name): array
    {
        $dir = __DIR__ . '/otel';
        if (!is_file($dir . '/vendor/autoload.php')) {
            self::fail('The OpenTelemetry SDK is not installed: run scripts/setup (composer install --working-dir=tests/Integration/Client/otel).');
        }
        $base = substr(self::nginxUrl('h2'), 0, -\strlen('/fast'));
        $process = new Process([\PHP_BINARY, $dir . '/scenarios.php', $name, $base, self::rig()->caFile()]);
        $process->setTimeout(30);
        $process->run();
        self::assertTrue($process->isSuccessful(), $process->getErrorOutput() . $process->getOutput());
        /** @var array{spans: array<string, array{id: string, parent: string, parent_valid: bool, trace: string, status_code: mixed}>, warnings: list<string>, result: array<string, mixed>} $run */
        $run = json_decode($process->getOutput(), true, flags: \JSON_THROW_ON_ERROR);

        return $run;
    }
}
