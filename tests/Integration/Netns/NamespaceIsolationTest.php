<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

/**
 * The suite's own safety net: before any guard test trusts the namespace, prove that it has only
 * loopback, that a non-loopback address cannot be reached, and that the resolver stub answers.
 */
final class NamespaceIsolationTest extends LoopbackOnlyTestCase
{
    public function testOnlyLoopbackExists(): void
    {
        self::assertSame(['lo'], LoopbackOnlyNamespace::interfaces());
    }

    public function testANonLoopbackAddressIsUnreachable(): void
    {
        $socket = @stream_socket_client('tcp://10.1.2.3:80', $errno, $errstr, 1.0);
        self::assertFalse($socket, 'a connect outside loopback must fail in this namespace');
        self::assertStringContainsStringIgnoringCase('unreachable', (string) $errstr);
    }

    public function testTheResolverStubMapsAttackerNamesToLoopback(): void
    {
        self::assertSame(['127.0.0.1'], gethostbynamel('evil.example'));
        self::assertFalse(@gethostbynamel('example.com'), 'no DNS outside the stub');
    }
}
