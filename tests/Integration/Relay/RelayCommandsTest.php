<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\FreePort;
use WarmHttp\Rig\TempDir;

/**
 * The relay's commands as a user runs them: real `bin/warmhttp` processes, results on stdout,
 * errors on stderr with an exit code (1 failure, 2 wrong usage) and a message naming what to do.
 */
final class RelayCommandsTest extends TestCase
{
    private const STATUS_FIELDS = ['spool', 'socket', 'running', 'pending', 'retrying', 'dead', 'delivered', 'dead_lettered', 'oldest_age_seconds', 'in_flight'];

    public function testRelayStatusWithNoOptionsFindsARelayStartedWithNoOptions(): void
    {
        // Both read WARMHTTP_RELAY_SOCKET / WARMHTTP_RELAY_SPOOL (RelayLocation); neither gets a path option.
        $relay = RelayProcess::startFromEnvironment();

        $text = $relay->command('relay:status');
        $json = self::document($relay->command('relay:status', ['--format=json']));

        self::assertMatchesRegularExpression('/^in flight +0$/m', $text->getOutput());
        self::assertSame('', $text->getErrorOutput());
        self::assertSame(self::STATUS_FIELDS, array_keys($json));
        self::assertSame([$relay->spoolPath(), $relay->socketPath(), true, 0], [$json['spool'], $json['socket'], $json['running'], $json['in_flight']]);
        self::assertIsFloat($json['oldest_age_seconds']);
    }

    public function testRelayStatusGivenOnlyTheSpoolAsksTheRelayOnItsOwnSocket(): void
    {
        // The relay records its socket beside its spool; relay:status used to try the default socket.
        $relay = RelayProcess::start();

        $json = self::document($relay->command('relay:status', ['--format=json']));

        self::assertSame([$relay->socketPath(), true, 0], [$json['socket'], $json['running'], $json['in_flight']]);
    }

    public function testRelayStatusOfAStoppedRelaySaysSoAndStillCountsTheQueue(): void
    {
        $relay = RelayProcess::start();
        $relay->stop();

        $text = $relay->command('relay:status');
        $json = $relay->command('relay:status', ['--format=json']);

        self::assertMatchesRegularExpression('/^in flight +relay not running \(no socket at /m', $text->getOutput());
        self::assertSame([false, null, 0], [self::document($json)['running'], self::document($json)['in_flight'], self::document($json)['pending']]);
        self::assertStringContainsString('in_flight is null: relay not running', $json->getErrorOutput());
    }

    public function testTheDeprecatedJsonFlagPrintsTheSameDocumentAndSaysSoOnStderr(): void
    {
        $relay = RelayProcess::start();

        $status = $relay->command('relay:status', ['--json']);
        $failed = $relay->command('relay:failed', ['--json']);

        self::assertSame(self::STATUS_FIELDS, array_keys(self::document($status)));
        self::assertStringContainsString('--json is deprecated; use --format=json', $status->getErrorOutput());
        self::assertSame([], self::document($failed));
        self::assertStringContainsString('--json is deprecated; use --format=json', $failed->getErrorOutput());
    }

    public function testDeadLettersAsJsonAndRequeuedById(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks', '--max-attempts=1']);
        // Nothing listens there: connection refused, and one attempt is all it gets.
        $relay->raw(\sprintf("POST http://127.0.0.1:%d/hook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}", FreePort::pick()));

        $dead = $relay->awaitDeadLetters();
        $failed = self::document($relay->command('relay:failed', ['--format=json']));
        $retry = $relay->run('relay:retry', [(string) $dead[0]['id'], '999999']);

        self::assertCount(1, $dead);
        self::assertIsArray($failed[0]);
        self::assertSame(['id', 'method', 'uri', 'attempts', 'failed_at', 'last_error'], array_keys($failed[0]));
        self::assertSame(['POST', 1], [$failed[0]['method'], $failed[0]['attempts']]);
        self::assertIsFloat($failed[0]['failed_at']);
        self::assertSame(1, $retry->getExitCode(), 'one of the two ids was no dead letter');
        self::assertSame("Requeued 1 request(s).\n", $retry->getOutput());
        self::assertStringContainsString('Not dead letters: 999999', $retry->getErrorOutput());
    }

    public function testUnknownFormatIsAUsageErrorNamingTheAllowedValues(): void
    {
        $relay = RelayProcess::start();

        foreach (['relay:status', 'relay:failed'] as $command) {
            $process = $relay->run($command, ['--format=yaml']);

            self::assertSame(2, $process->getExitCode(), $command);
            self::assertSame('', $process->getOutput(), $command);
            self::assertStringContainsString('--format must be "text" or "json", got "yaml"', $process->getErrorOutput());
        }
    }

    public function testEveryCommandOnAMissingSpoolFailsOnStderrNamingTheSpool(): void
    {
        $dir = TempDir::create('commands');
        $spool = $dir->path('nowhere.sqlite');

        foreach ([['relay:status'], ['relay:status', '--format=json'], ['relay:failed', '--format=json'], ['relay:retry', '--all']] as $args) {
            $process = self::warmhttp([...$args, '--spool=' . $spool]);

            self::assertSame(1, $process->getExitCode(), implode(' ', $args));
            self::assertSame('', $process->getOutput(), implode(' ', $args));
            self::assertStringContainsString("No spool at $spool: is the relay running with another --spool? Pass the relay's --spool=PATH", $process->getErrorOutput());
        }
        $dir->remove();
    }

    public function testWrongUsageExitsTwoWithTheMessageOnStderr(): void
    {
        $relay = RelayProcess::start();
        $cases = [
            [['relay:retry'], 'Name the dead letters to requeue (ids from relay:failed), or pass --all.'],
            [['relay:retry', 'abc'], '"abc" is not a dead letter id'],
            [['relay:retry', '1', '--all'], 'Pass dead letter ids or --all, not both.'],
            [['relay:failed', '--limit=0'], '--limit must be a whole number >= 1, got "0"'],
        ];

        foreach ($cases as [$args, $message]) {
            $process = $relay->run(array_shift($args), $args);

            self::assertSame(2, $process->getExitCode(), $message);
            self::assertSame('', $process->getOutput(), $message);
            self::assertStringContainsString($message, $process->getErrorOutput());
        }
    }

    public function testTheRelayRefusesBadOptionsAndUnusablePathsOnStderr(): void
    {
        $dir = TempDir::create('commands');
        file_put_contents($dir->path('file'), '');
        $cases = [
            [['--spool=' . $dir->path('file/relay.sqlite'), '--socket=' . $dir->path('r.sock')], 1, 'The relay\'s spool directory ' . $dir->path('file') . ' is not usable'],
            [['--socket=' . $dir->path('file/r.sock'), '--spool=' . $dir->path('s.sqlite')], 1, 'pass --socket=PATH (or set $WARMHTTP_RELAY_SOCKET)'],
            [['--spool-sync=sometimes', '--spool=' . $dir->path('s.sqlite')], 2, '--spool-sync must be \"full\" or \"normal\", got \"sometimes\"'],
            [['--role=helper', '--spool=' . $dir->path('s.sqlite')], 2, '--role must be \"front\"'],
        ];

        foreach ($cases as [$args, $code, $message]) {
            $process = self::warmhttp(['relay', ...$args]);

            self::assertSame($code, $process->getExitCode(), $message);
            self::assertSame('', $process->getOutput(), $message);
            self::assertStringContainsString($message, $process->getErrorOutput());
        }
        $dir->remove();
    }

    /** @return array<mixed> */
    private static function document(Process $process): array
    {
        $document = json_decode($process->getOutput(), true, flags: \JSON_THROW_ON_ERROR);
        self::assertIsArray($document);

        return $document;
    }

    /** @param list<string> $args */
    private static function warmhttp(array $args): Process
    {
        $process = new Process([\PHP_BINARY, RelayProcess::bin(), ...$args], null, ['WARMHTTP_RELAY_SOCKET' => false, 'WARMHTTP_RELAY_SPOOL' => false]);
        $process->run();

        return $process;
    }
}
