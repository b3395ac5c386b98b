<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\RequiresPhpExtension;
use WarmHttp\Client;
use WarmHttp\Pool;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * libcurl is not fork-safe: a child reusing the parent's connections reads the parent's
 * responses (symfony#49390). After pcntl_fork the child must get a pool of its own.
 */
#[RequiresPhpExtension('pcntl')]
final class ForkTest extends RigTestCase
{
    public function testParentAndChildNeverSeeEachOthersResponses(): void
    {
        foreach (['h2', 'h1tls', 'plain'] as $listener) {
            $client = self::client();
            $client->sendRequest($client->createRequest('GET', self::nginxUrl($listener))); // warm
            $pid = pcntl_fork();
            self::assertNotSame(-1, $pid, 'pcntl_fork failed');
            if ($pid === 0) {
                $ok = self::exchange($client, $listener, 'child') && Pool::stats()->requests === 20;
                // exec instead of exit: the child must not run the rig's shutdown (it would stop
                // the parent's nginx), nor libcurl's cleanup of the parent's TLS sessions.
                pcntl_exec($ok ? '/bin/true' : '/bin/false');
            }
            self::assertTrue(self::exchange($client, $listener, 'parent'), "the parent got a wrong response on $listener");
            $status = 0;
            pcntl_waitpid($pid, $status);
            \assert(\is_int($status));
            self::assertSame(0, pcntl_wexitstatus($status), "the child got a wrong response or a shared pool on $listener");
            self::assertTrue(self::exchange($client, $listener, 'parent-after'), "the parent's pool broke after the child exited on $listener");
        }
    }

    /** 20 requests, each must come back with its own path. */
    private static function exchange(Client $client, string $listener, string $who): bool
    {
        for ($i = 0; $i < 20; ++$i) {
            $path = "/echo/$who-$i";
            try {
                if ((string) $client->sendRequest($client->createRequest('GET', self::nginxUrl($listener, $path)))->getBody() !== $path) {
                    return false;
                }
            } catch (\Throwable) {
                return false;
            }
        }

        return true;
    }
}
