<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Console;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Console\RelayCommand;
use WarmHttp\Relay\Console\RelayFailedCommand;
use WarmHttp\Relay\Console\RelayLocation;
use WarmHttp\Relay\Console\RelayRetryCommand;
use WarmHttp\Relay\Console\RelayStatusCommand;
use WarmHttp\Relay\RelayConfig;

final class RelayLocationTest extends TestCase
{
    private string $dir = '';

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/warmhttp-location-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->dir . '/*') ?: []);
        rmdir($this->dir);
    }

    public function testWithNothingGivenTheBuiltInDefaults(): void
    {
        $location = RelayLocation::resolve(null, null, []);

        self::assertSame([RelayConfig::DEFAULT_SOCKET, RelayConfig::DEFAULT_SPOOL], [$location->socket, $location->spool]);
    }

    public function testTheRelayAndRelayStatusResolveTheSameDefaults(): void
    {
        foreach ([[], [RelayLocation::SOCKET_ENV => '/srv/r.sock', RelayLocation::SPOOL_ENV => $this->dir . '/s.sqlite']] as $environment) {
            $relay = RelayLocation::resolve(null, null, $environment);
            $status = RelayLocation::ofRunningRelay(null, null, $environment);

            self::assertSame([$relay->socket, $relay->spool], [$status->socket, $status->spool]);
        }
    }

    public function testEveryCommandLeavesItsPathDefaultsToRelayLocation(): void
    {
        // A literal default on an option would win over the environment, and could drift from
        // the daemon's: each command takes null and asks RelayLocation.
        foreach ([new RelayCommand(), new RelayStatusCommand(), new RelayFailedCommand(), new RelayRetryCommand()] as $command) {
            foreach (['socket', 'spool'] as $name) {
                if (!$command->getDefinition()->hasOption($name)) {
                    continue;
                }
                $option = $command->getDefinition()->getOption($name);
                self::assertNull($option->getDefault(), $command->getName() . ' --' . $name);
                self::assertStringContainsString('$WARMHTTP_RELAY_' . strtoupper($name), $option->getDescription());
            }
        }
    }

    public function testTheEnvironmentOverridesTheDefaultsAndAnOptionOverridesTheEnvironment(): void
    {
        $environment = [RelayLocation::SOCKET_ENV => '/srv/env.sock', RelayLocation::SPOOL_ENV => '/srv/env.sqlite'];

        $fromEnvironment = RelayLocation::resolve(null, '', $environment);
        $fromOptions = RelayLocation::resolve('/srv/opt.sock', '/srv/opt.sqlite', $environment);

        self::assertSame(['/srv/env.sock', '/srv/env.sqlite'], [$fromEnvironment->socket, $fromEnvironment->spool]);
        self::assertSame(['/srv/opt.sock', '/srv/opt.sqlite'], [$fromOptions->socket, $fromOptions->spool]);
    }

    public function testRelativePathsAreMadeAbsoluteAndNoneMeansTcpOnly(): void
    {
        $location = RelayLocation::resolve('none', 'spool.sqlite', []);

        self::assertNull($location->socket);
        self::assertSame(getcwd() . '/spool.sqlite', $location->spool);
    }

    public function testRelayStatusFindsTheSocketTheRelayRecordedBesideItsSpool(): void
    {
        $spool = $this->dir . '/spool.sqlite';
        $relay = RelayLocation::resolve($this->dir . '/elsewhere.sock', $spool, []);

        $relay->announce();
        $found = RelayLocation::ofRunningRelay(null, $spool, []);
        $explicit = RelayLocation::ofRunningRelay('/srv/asked.sock', $spool, []);
        $relay->withdraw();
        $afterStop = RelayLocation::ofRunningRelay(null, $spool, []);

        self::assertSame($this->dir . '/elsewhere.sock', $found->socket);
        self::assertSame('/srv/asked.sock', $explicit->socket);
        self::assertSame(RelayConfig::DEFAULT_SOCKET, $afterStop->socket);
    }

    public function testATcpOnlyRelayIsRecordedAsHavingNoSocket(): void
    {
        $spool = $this->dir . '/spool.sqlite';

        RelayLocation::resolve('none', $spool, [])->announce();

        self::assertNull(RelayLocation::ofRunningRelay(null, $spool, [])->socket);
    }

    public function testAMissingSpoolSaysWhereItLookedAndWhatToPass(): void
    {
        $this->expectExceptionMessage('No spool at ' . $this->dir . '/none.sqlite: is the relay running with another --spool? Pass the relay\'s --spool=PATH (or set $WARMHTTP_RELAY_SPOOL)');

        RelayLocation::resolve(null, $this->dir . '/none.sqlite', [])->readSpool(static fn() => null);
    }
}
