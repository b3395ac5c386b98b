<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * The front's limits (FrontLimits) and the spool reserve as `relay` options: a bad value stops
 * the start naming the option, and a value given reaches the running front.
 */
final class RelayLimitsOptionsTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function badValues(): iterable
    {
        yield 'no connections' => ['--max-connections=0', '--max-connections must be a whole number >= 1, got "0"'];
        yield 'past select()' => ['--max-connections=901', '--max-connections must be at most 900, got 901: the front waits with stream_select(), which handles descriptors below 1024 only, and keeps some for its listeners, files and upstream sockets'];
        yield 'zero idle timeout' => ['--idle-timeout=0', '--idle-timeout must be a number of seconds > 0, got "0"'];
        yield 'word for a head timeout' => ['--head-timeout=soon', '--head-timeout must be a number of seconds > 0, got "soon"'];
        yield 'budget under one MiB' => ['--input-budget=5', '--input-budget must be a whole number >= 1048576, got "5"'];
        yield 'reserve the worker cannot live with' => ['--spool-reserve=1048576', '--spool-reserve must be 0 (no check) or at least 1310720 bytes, got 1048576: the delivery worker needs that much free to move acknowledged requests from the journal into the spool'];
    }

    #[DataProvider('badValues')]
    public function testABadLimitIsRefusedAtStartNamingTheOption(string $option, string $error): void
    {
        $dir = TempDir::create('relay-limits');
        $relay = new Process([\PHP_BINARY, \dirname(__DIR__, 3) . '/bin/warmhttp', 'relay', '--socket=' . $dir->path('relay.sock'), '--spool=' . $dir->path('spool.sqlite'), $option]);
        $relay->setTimeout(10);
        $relay->run();
        $dir->remove();

        self::assertSame(2, $relay->getExitCode(), $relay->getErrorOutput());
        $log = json_decode(trim($relay->getErrorOutput()), true);
        self::assertIsArray($log, 'one JSON log line');
        self::assertSame(['critical', 'Relay cannot start', $error . '.'], [$log['level'], $log['msg'], $log['error']]);
    }

    public function testTheHeadTimeoutGivenReachesTheFront(): void
    {
        $relay = RelayProcess::start(['--head-timeout=0.5']);
        $socket = stream_socket_client($relay->address(), $errno, $errstr, 2.0);
        self::assertNotFalse($socket, (string) $errstr);
        fwrite($socket, "POST http://127.0.0.1:1/x HTTP/1.1\r\nX-Half: ");
        stream_set_timeout($socket, 5);
        $started = microtime(true);
        $answer = (string) stream_get_contents($socket);
        $waited = microtime(true) - $started;
        fclose($socket);
        $relay->remove();

        self::assertStringStartsWith('HTTP/1.1 408 Request Timeout', $answer);
        self::assertLessThan(4.0, $waited, 'the default head timeout is 10 s: --head-timeout=0.5 did not reach the front');
    }
}
