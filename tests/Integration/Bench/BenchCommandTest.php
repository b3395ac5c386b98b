<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Console\Tester\CommandTester;
use WarmHttp\Bench\Console\BenchCommand;

/**
 * A smoke run of `bench --quick` against the real rig (the relay rows with a real relay,
 * php-fpm and wrk): it completes and every scenario is in the JSON. Timings belong to the
 * benchmark, so none is asserted.
 */
final class BenchCommandTest extends TestCase
{
    private string $out;

    protected function setUp(): void
    {
        $this->out = sys_get_temp_dir() . '/warmhttp-bench-test-' . getmypid();
    }

    protected function tearDown(): void
    {
        foreach (glob($this->out . '/*') ?: [] as $file) {
            unlink($file);
        }
        @rmdir($this->out);
    }

    public function testQuickRunWritesEveryScenarioToValidJson(): void
    {
        $tester = new CommandTester(new BenchCommand());
        // Smaller than --quick still (one repeat, few requests): the suite has to stay short.
        $status = $tester->execute(['--quick' => true, '--repeat' => '1', '--requests' => '4', '--parallel' => '8', '--tasks' => '2', '--rtt' => '5', '--server-time' => '5', '--cpu-requests' => '50', '--out' => $this->out]);

        self::assertSame(0, $status, $tester->getDisplay());
        $report = $this->report();
        $ids = array_map(static fn(array $row): string => $row['group'] . '/' . $row['name'], $report['rows']);
        foreach (self::expectedIds() as $id) {
            self::assertContains($id, $ids);
        }
        foreach ($report['rows'] as $row) {
            self::assertContains($row['status'], ['ok', 'skipped'], $row['group'] . '/' . $row['name'] . ': ' . $row['reason']);
        }
        self::assertCount(11, $report['goals']); // the CPU group's two (instructions and CPU time over raw curl), the relay's four (relay_sync against warm curl and against the hop floor)
        self::assertStringStartsWith('<svg', (string) file_get_contents($this->out . '/bench.svg'));
        self::assertStringContainsString('| WarmHttp Client, sendRequest() |', (string) file_get_contents($this->out . '/bench.md'));

        $svg = (string) file_get_contents($this->out . '/bench.svg');
        unlink($this->out . '/bench.svg');
        self::assertSame(0, (new CommandTester(new BenchCommand()))->execute(['--render' => $this->out . '/bench.json']));
        self::assertSame($svg, file_get_contents($this->out . '/bench.svg'), '--render draws the same chart from the JSON');
    }

    public function testOnlySelectsRowsAndBadOptionsAreRefused(): void
    {
        $tester = new CommandTester(new BenchCommand());
        $status = $tester->execute(['--only' => 'seq/warmhttp', '--repeat' => '1', '--requests' => '2', '--rtt' => '2', '--out' => $this->out]);
        self::assertSame(0, $status, $tester->getDisplay());
        $report = $this->report();
        self::assertSame(['warmhttp'], array_column($report['rows'], 'name'));
        self::assertCount(1, $report['goals'], 'only the sequential group ran: no goals of the others');
        self::assertStringContainsString('2 sequential GETs', $tester->getDisplay());
        self::assertStringNotContainsString('CPU per warm request', $tester->getDisplay(), 'no heading for a group that did not run');

        self::assertSame(2, $tester->execute(['--payload' => '7']));
        self::assertStringContainsString('--payload must be one of', $tester->getDisplay());
    }

    /**
     * @return array{rows: list<array{group: string, name: string, status: string, reason: ?string}>, goals: list<mixed>}
     */
    private function report(): array
    {
        $report = json_decode((string) file_get_contents($this->out . '/bench.json'), true, 512, \JSON_THROW_ON_ERROR);
        self::assertIsArray($report);
        self::assertIsArray($report['rows'] ?? null);
        self::assertIsArray($report['goals'] ?? null);

        /** @var array{rows: list<array{group: string, name: string, status: string, reason: ?string}>, goals: list<mixed>} $report */
        return $report;
    }

    /** @return list<string> */
    private static function expectedIds(): array
    {
        return [
            'seq/curl-naive', 'seq/curl-reused', 'seq/curl-multi-cache', 'seq/curl-share', 'seq/file-get-contents',
            'seq/guzzle-one-client', 'seq/guzzle-client-per-request', 'seq/symfony', 'seq/warmhttp', 'seq/warmhttp-5-clients',
            'two-origins/curl-naive', 'two-origins/warmhttp', 'two-origins/warmhttp-sendall-h2',
            'par/curl-multi-plain', 'par/curl-multi-share-h2', 'par/guzzle-async', 'par/symfony-parallel',
            'par/warmhttp-sendall-h1-cap2', 'par/warmhttp-sendall-h1-cap6', 'par/warmhttp-sendall-h1-cap20',
            'par/warmhttp-sendall-h1-cap100', 'par/warmhttp-sendall-h2',
            'conc/warmhttp-concurrently', 'conc/warmhttp',
            'cpu/curl-reused', 'cpu/curl-multi-cache', 'cpu/warmhttp', 'cpu/guzzle-one-client', 'cpu/symfony',
            'relay/warmhttp-dispatch', 'relay/warmhttp-dispatch-full', 'relay/exec-curl', 'relay/blocking-cold-post',
            'relay/warmhttp-throughput', 'relay/warmhttp-sync-first-call', 'relay/cold-first-call',
            'relay/fpm-blocking', 'relay/warmhttp-fpm-dispatch',
            'relay/node-forwarder', 'relay/node-forwarder-throughput', 'relay/node-fpm-forwarder',
            'relay/redis-dispatch', 'relay/redis-deliveries-1', 'relay/redis-deliveries-2',
        ];
    }
}
