<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bench;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Console\Tester\CommandTester;
use WarmHttp\Bench\Console\DemoCommand;
use WarmHttp\Console\ProbeCommand;
use WarmHttp\Rig\Rig;

final class ProbeAndDemoCommandTest extends TestCase
{
    public function testProbeShowsOneColdAndTheWarmRequests(): void
    {
        $rig = Rig::shared();
        $proxy = $rig->proxyTo('h2', 2);
        $tester = new CommandTester(new ProbeCommand());

        $status = $tester->execute(['url' => $proxy->url('/fast'), '--count' => '3', '--cafile' => $rig->caFile()]);

        $display = $tester->getDisplay();
        self::assertSame(0, $status, $display);
        self::assertSame(1, substr_count($display, 'cold (new)'), $display);
        self::assertSame(3, substr_count($display, 'warm (reused)'), $display);
        self::assertStringContainsString('Connections opened: 1, TLS handshakes: 1, for 4 requests', $display);
        self::assertSame(1, $proxy->connections());
    }

    public function testProbeReportsAFailedRequest(): void
    {
        $tester = new CommandTester(new ProbeCommand());
        // The rig CA is not given, so verification fails: the message must say so.
        $status = $tester->execute(['url' => Rig::shared()->nginx()->url('h2', '/fast'), '--count' => '0'], ['capture_stderr_separately' => true]);

        self::assertSame(1, $status);
        self::assertSame('', $tester->getDisplay());
        self::assertStringContainsString('Request 1 to https://127.0.0.1', $tester->getErrorOutput());
    }

    public function testDemoRunsColdAgainstWarm(): void
    {
        $tester = new CommandTester(new DemoCommand());

        $status = $tester->execute(['--rtt' => '2', '--requests' => '3']);

        self::assertSame(0, $status, $tester->getDisplay());
        self::assertMatchesRegularExpression('/plain curl, new handle per request \(most SDKs\) \| \d+ ms +\| [\d.]+ ms +\| 3 /', $tester->getDisplay());
        self::assertMatchesRegularExpression('/WarmHttp Client again: the pool is warm +\| \d+ ms +\| [\d.]+ ms +\| 0 /', $tester->getDisplay());
    }
}
