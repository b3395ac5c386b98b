<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Console;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\Rig;

/**
 * `bin/warmhttp probe` as a real process against the rig's nginx on loopback: the JSON
 * document on stdout alone, errors on stderr with exit code 1 (failed) or 2 (wrong usage).
 */
final class ProbeCommandTest extends TestCase
{
    private const REQUEST_FIELDS = ['number', 'reused_connection', 'dns_ms', 'connect_ms', 'tls_ms', 'first_byte_ms', 'total_ms', 'status', 'http_version', 'remote_address'];

    public function testJsonIsOneDocumentWithTheDocumentedFields(): void
    {
        $rig = Rig::shared();
        $url = $rig->nginx()->url('h2', '/fast');

        $process = self::probe([$url, '--count=2', '--cafile=' . $rig->caFile(), '--format=json']);

        self::assertSame(0, $process->getExitCode(), $process->getErrorOutput());
        self::assertSame('', $process->getErrorOutput());
        $probe = json_decode($process->getOutput(), true, flags: \JSON_THROW_ON_ERROR);
        self::assertIsArray($probe);
        self::assertSame(['url', 'requests', 'connections_opened', 'tls_handshakes'], array_keys($probe));
        self::assertSame([$url, 1, 1], [$probe['url'], $probe['connections_opened'], $probe['tls_handshakes']]);
        self::assertIsArray($probe['requests']);
        self::assertCount(3, $probe['requests']);
        foreach ($probe['requests'] as $i => $request) {
            self::assertIsArray($request);
            self::assertSame(self::REQUEST_FIELDS, array_keys($request));
            self::assertSame([$i + 1, $i > 0, 200, '2'], [$request['number'], $request['reused_connection'], $request['status'], $request['http_version']]);
            self::assertIsFloat($request['total_ms']);
            self::assertGreaterThan(0.0, $request['total_ms']);
            self::assertSame($i === 0, $request['tls_ms'] > 0.0, 'only the cold request pays for TLS');
        }
    }

    public function testTextIsTheTableAndTheSummary(): void
    {
        $rig = Rig::shared();

        $process = self::probe([$rig->nginx()->url('h2', '/fast'), '--count=1', '--cafile=' . $rig->caFile()]);

        self::assertSame(0, $process->getExitCode(), $process->getErrorOutput());
        self::assertStringContainsString('cold (new)', $process->getOutput());
        self::assertStringContainsString('Connections opened: 1, TLS handshakes: 1, for 2 requests', $process->getOutput());
    }

    public function testAFailedRequestIsReportedOnStderrWithNothingOnStdout(): void
    {
        // The rig CA is not given, so verification fails.
        $url = Rig::shared()->nginx()->url('h2', '/fast');

        foreach (['text', 'json'] as $format) {
            $process = self::probe([$url, '--count=0', '--format=' . $format]);

            self::assertSame(1, $process->getExitCode(), $format);
            self::assertSame('', $process->getOutput(), $format);
            self::assertStringContainsString('Request 1 to ' . $url . ' failed: ', $process->getErrorOutput());
        }
    }

    public function testWrongUsageExitsTwoNamingTheOption(): void
    {
        $url = Rig::shared()->nginx()->url('plain', '/fast');
        $cases = [
            [[$url, '--format=xml'], '--format must be "text" or "json", got "xml".'],
            [['ftp://127.0.0.1/x'], 'probe needs an http:// or https:// URL, got "ftp://127.0.0.1/x".'],
            [[$url, '--count=1.5'], '--count must be a whole number >= 0 (warm requests after the cold one), got "1.5".'],
            [[$url, '--cafile=/nonexistent/ca.pem'], '--cafile must be a readable CA bundle (PEM), got "/nonexistent/ca.pem".'],
        ];

        foreach ($cases as [$args, $message]) {
            $process = self::probe($args);

            self::assertSame(2, $process->getExitCode(), $message);
            self::assertSame('', $process->getOutput(), $message);
            self::assertStringContainsString($message, $process->getErrorOutput());
        }
    }

    /** @param list<string> $args */
    private static function probe(array $args): Process
    {
        $process = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'probe', ...$args]);
        $process->run();

        return $process;
    }
}
