<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Outbound;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Options;
use WarmHttp\Relay\Outbound\SyncSettings;

final class SyncSettingsTest extends TestCase
{
    public function testAClientsDefaultsInOneLine(): void
    {
        self::assertSame('verify=1; timeout=30; connect-timeout=10; read-timeout=0', SyncSettings::of(Options::fromArray([])));
    }

    public function testEveryCarriedSettingGoesAndComesBack(): void
    {
        $line = SyncSettings::of(Options::fromArray(['verify' => false, 'cafile' => __FILE__, 'timeout' => 2.5, 'connect_timeout' => 0.25, 'read_timeout' => 1]));

        [$options, $version] = SyncSettings::parse(SyncSettings::withVersion($line, null, '1.0'), 30.0);

        self::assertSame(['verify' => false, 'timeout' => 3.5, 'connect_timeout' => 0.25, 'read_timeout' => 2.0, 'cafile' => __FILE__], $options);
        self::assertSame('1.0', $version);
    }

    public function testACafilePathWithSeparatorsSurvives(): void
    {
        $line = 'verify=1; cafile=' . rawurlencode('/etc/ca; dir=x/b.pem') . '; timeout=1; connect-timeout=1; read-timeout=0';

        self::assertSame('/etc/ca; dir=x/b.pem', SyncSettings::parse($line, 30.0)[0]['cafile'] ?? null);
    }

    /** @return iterable<string, array{?string, string, ?string}> */
    public static function versions(): iterable
    {
        yield 'PSR-7 default' => [null, '1.1', null];
        yield 'request 1.0' => [null, '1.0', '1.0'];
        yield 'request 2' => [null, '2', '2'];
        yield 'request 2.0' => [null, '2.0', '2'];
        yield 'the option wins' => ['1.1', '2', '1.1'];
    }

    #[DataProvider('versions')]
    public function testTheVersionIsChosenAsTheClientChoosesIt(?string $option, string $request, ?string $expected): void
    {
        self::assertSame($expected, SyncSettings::parse(SyncSettings::withVersion('verify=1', $option, $request), 30.0)[1]);
    }

    public function testTheRelaysTimersAreABackstopWithinItsOwnLimit(): void
    {
        self::assertSame(31.0, SyncSettings::parse('timeout=30', 60.0)[0]['timeout']);
        self::assertSame(20.0, SyncSettings::parse('timeout=30', 20.0)[0]['timeout'], 'the relay\'s --timeout bounds it');
        self::assertSame(20.0, SyncSettings::parse('timeout=0', 20.0)[0]['timeout'], 'no limit is the relay\'s limit');
        self::assertSame(0.0, SyncSettings::parse('read-timeout=0', 20.0)[0]['read_timeout']);
        self::assertSame(2.0, SyncSettings::parse('connect-timeout=2', 20.0)[0]['connect_timeout'], 'connecting is the relay\'s alone');
    }

    /** @return iterable<string, array{string, string}> */
    public static function unusable(): iterable
    {
        yield 'unknown setting' => ['verify=1; proxy=http://x', 'unknown setting "proxy"'];
        yield 'bad version' => ['version=3', 'version must be 1.0, 1.1 or 2, got "3"'];
        yield 'negative timeout' => ['timeout=-1', 'timeout must be a number of seconds >= 0, got "-1"'];
        yield 'words' => ['read-timeout=soon', 'read-timeout must be a number of seconds >= 0, got "soon"'];
    }

    #[DataProvider('unusable')]
    public function testALineTheRelayCannotUseIsRefusedNamingWhy(string $line, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);

        SyncSettings::parse($line, 30.0);
    }
}
