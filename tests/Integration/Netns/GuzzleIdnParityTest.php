<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

use GuzzleHttp\Client as GuzzleClient;
use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\Parity;

/**
 * Guzzle's `idn_conversion` through Guzzle's default handler and through WarmHttp's (the parity
 * harness of tests/Integration/Bridge/Parity): a non-ASCII host is converted to its A-label by
 * Guzzle's Client, or refused by the handler when conversion is off. It needs a name to
 * resolve, `bücher.localhost`, hence this suite: only lo is here, so a side that sent it
 * anyway could reach nothing but loopback.
 */
final class GuzzleIdnParityTest extends LoopbackOnlyTestCase
{
    private static ?Parity $parity = null;

    public static function tearDownAfterClass(): void
    {
        self::$parity = null;
    }

    /** @return iterable<string, array{array<string, mixed>, bool}> */
    public static function conversions(): iterable
    {
        yield 'unset (Guzzle 7: off)' => [[], false];
        yield 'false' => [['idn_conversion' => false], false];
        yield 'true' => [['idn_conversion' => true], true];
        yield 'IDNA flags' => [['idn_conversion' => \IDNA_DEFAULT], true];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('conversions')]
    public function testANonAsciiHostIsConvertedOrRefusedAlike(array $options, bool $sent): void
    {
        $parity = self::$parity ??= new Parity(EchoOrigin::start());
        $result = $parity->scenario(static fn(GuzzleClient $client, EchoOrigin $origin) => $client->get('http://bücher.localhost:' . $origin->port() . '/idn', $options));

        $compared = $result->compared();
        self::assertSame($compared['guzzle'], $compared['warm'], 'Guzzle\'s default handler (expected) and WarmHttp\'s handler (actual) differ');
        $received = $result->warm->received;
        self::assertSame($sent ? 'xn--bcher-kva.localhost:' . $result->warm->port : null, ($received[0] ?? null)?->header('Host'));
    }
}
