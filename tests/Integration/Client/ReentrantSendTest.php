<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\RequiresPhpExtension;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Pool;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * A request sent from inside another one's wait: a signal handler (pcntl_async_signals) runs
 * between the pool's calls into curl. Both get their own answer, and the pool is left idle.
 */
#[RequiresPhpExtension('pcntl')]
#[RequiresPhpExtension('posix')]
final class ReentrantSendTest extends RigTestCase
{
    public function testASignalHandlerSendsARequestWhileAWarmRequestWaits(): void
    {
        $client = self::client();
        $fast = self::nginxUrl('h2', '/fast');
        self::assertSame(200, $client->sendRequest($client->createRequest('GET', $fast))->getStatusCode()); // warm: a kept handle
        $inner = null;
        $async = pcntl_async_signals(true);
        pcntl_signal(\SIGUSR1, static function () use ($client, $fast, &$inner): void {
            $inner = $client->sendRequest($client->createRequest('GET', $fast));
        });
        $signaller = proc_open(['sh', '-c', 'sleep 0.1; kill -USR1 ' . getmypid()], [], $pipes);
        try {
            $outer = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/slow/400')));
        } finally {
            \is_resource($signaller) && proc_close($signaller);
            pcntl_signal(\SIGUSR1, \SIG_DFL);
            pcntl_async_signals($async);
        }

        self::assertNotNull($inner, 'the signal came while the outer request waited');
        self::assertSame([200, 'ok'], [$inner->getStatusCode(), (string) $inner->getBody()]);
        self::assertSame([200, 'ok'], [$outer->getStatusCode(), (string) $outer->getBody()]);
        self::assertSame(0, Pool::stats()->inFlight);
        self::assertSame(200, $client->sendRequest($client->createRequest('GET', $fast))->getStatusCode());
    }

    /** The warm request ends first; the one sent meanwhile times out later: neither gets the other's end. */
    public function testEachRequestGetsItsOwnEndWhenTheyEndInTheOtherOrder(): void
    {
        $client = self::client();
        $impatient = self::client(['timeout' => 0.3]);
        self::assertSame(200, $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/fast')))->getStatusCode());
        $inner = null;
        $async = pcntl_async_signals(true);
        pcntl_signal(\SIGUSR1, static function () use ($impatient, &$inner): void {
            try {
                $inner = $impatient->sendRequest($impatient->createRequest('GET', self::nginxUrl('h2', '/slow/2000')));
            } catch (TimeoutException $e) {
                $inner = $e;
            }
        });
        $signaller = proc_open(['sh', '-c', 'sleep 0.05; kill -USR1 ' . getmypid()], [], $pipes);
        try {
            $outer = $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/slow/200')));
        } finally {
            \is_resource($signaller) && proc_close($signaller);
            pcntl_signal(\SIGUSR1, \SIG_DFL);
            pcntl_async_signals($async);
        }

        self::assertInstanceOf(TimeoutException::class, $inner);
        self::assertSame([200, 'ok'], [$outer->getStatusCode(), (string) $outer->getBody()]);
        self::assertSame(0, Pool::stats()->inFlight);
    }

    /** A handler that throws ends the warm request with its exception; the pool goes on as before. */
    public function testAnExceptionFromASignalHandlerLeavesThePoolUsable(): void
    {
        $client = self::client();
        $fast = self::nginxUrl('h2', '/fast');
        self::assertSame(200, $client->sendRequest($client->createRequest('GET', $fast))->getStatusCode());
        $async = pcntl_async_signals(true);
        pcntl_signal(\SIGUSR1, static function (): void {
            throw new \RuntimeException('from the handler');
        });
        $signaller = proc_open(['sh', '-c', 'sleep 0.05; kill -USR1 ' . getmypid()], [], $pipes);
        try {
            $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/slow/300')));
            self::fail('the handler\'s exception ends the request');
        } catch (\RuntimeException $e) {
            self::assertSame('from the handler', $e->getMessage());
        } finally {
            \is_resource($signaller) && proc_close($signaller);
            pcntl_signal(\SIGUSR1, \SIG_DFL);
            pcntl_async_signals($async);
        }

        for ($i = 0; $i < 3; ++$i) {
            $response = $client->sendRequest($client->createRequest('GET', $fast));
            self::assertSame([200, 'ok'], [$response->getStatusCode(), (string) $response->getBody()]);
        }
        self::assertSame(0, Pool::stats()->inFlight);
    }
}
