<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use WarmHttp\Relay\Front\CallerConnection;
use WarmHttp\Relay\Front\Callers;
use WarmHttp\Relay\Front\FrontLimits;

/**
 * The front's limits on its callers, on real sockets of a private unix listener, with the
 * clock passed in: timeouts are checked without waiting for them.
 */
final class CallersTest extends TestCase
{
    /** @var resource */
    private $listener;

    private string $path;

    /** @var list<resource> */
    private array $clients = [];

    protected function setUp(): void
    {
        $this->path = sys_get_temp_dir() . '/callers-test-' . bin2hex(random_bytes(4)) . '.sock';
        $listener = stream_socket_server('unix://' . $this->path);
        self::assertNotFalse($listener);
        stream_set_blocking($listener, false);
        $this->listener = $listener;
    }

    protected function tearDown(): void
    {
        array_map(fclose(...), $this->clients);
        fclose($this->listener);
        @unlink($this->path);
    }

    public function testPastTheCapNewCallersAreToldServiceUnavailableAndClosed(): void
    {
        $callers = new Callers(new FrontLimits(maxConnections: 2), new NullLogger());
        $clients = [$this->connect(), $this->connect(), $this->connect()];
        $callers->accept($this->listener, false, 0.0);
        // (all three arrive at once: none has been idle long enough to give its place away)

        $answer = self::readAll($clients[2]);

        self::assertSame(2, $callers->count());
        self::assertStringStartsWith('HTTP/1.1 503 ', $answer);
        self::assertStringContainsString('2 connections open', $answer);
        self::assertTrue(feof($clients[2]), 'and closed');
    }

    public function testAtTheCapTheConnectionIdleTheLongestGivesItsPlaceToANewCaller(): void
    {
        $callers = new Callers(new FrontLimits(maxConnections: 2), new NullLogger());
        $old = $this->connect();
        $callers->accept($this->listener, false, 100.0);
        $recent = $this->connect();
        $callers->accept($this->listener, false, 105.0);
        $this->connect();
        $callers->accept($this->listener, false, 110.0);

        self::assertSame(2, $callers->count());
        self::assertSame('', self::readAll($old));
        self::assertTrue(feof($old), 'the oldest idle one was closed');
        self::assertSame('', self::readAll($recent));
        self::assertFalse(feof($recent));
    }

    public function testAtTheCapAConnectionIdleLessThanASecondIsNotGivenAway(): void
    {
        $callers = new Callers(new FrontLimits(maxConnections: 1), new NullLogger());
        $this->connect();
        $callers->accept($this->listener, false, 100.0);
        $new = $this->connect();
        $callers->accept($this->listener, false, 100.5);

        self::assertStringStartsWith('HTTP/1.1 503 ', self::readAll($new));
    }

    public function testAtTheCapAConnectionWithARequestInFlightIsNotGivenAway(): void
    {
        $callers = new Callers(new FrontLimits(maxConnections: 1), new NullLogger());
        $this->connect();
        $callers->accept($this->listener, false, 100.0);
        $this->only($callers)->busy = true;
        $new = $this->connect();
        $callers->accept($this->listener, false, 200.0);

        self::assertStringStartsWith('HTTP/1.1 503 ', self::readAll($new));
    }

    public function testTcpCallersGetHalfTheConnectionsAtMost(): void
    {
        $callers = new Callers(new FrontLimits(maxConnections: 4), new NullLogger());
        $tcp = [$this->connect(), $this->connect(), $this->connect()];
        $callers->accept($this->listener, true, 0.0);
        $unix = [$this->connect(), $this->connect()];
        $callers->accept($this->listener, false, 0.0);

        self::assertSame(4, $callers->count(), 'two from TCP, two from the unix socket');
        self::assertStringStartsWith('HTTP/1.1 503 ', self::readAll($tcp[2]));
        self::assertSame('', self::readAll($unix[1]));
    }

    public function testANewConnectionThatSendsNothingIsAnswered408AfterTheHeadTimeout(): void
    {
        $callers = new Callers(new FrontLimits(headSeconds: 10.0), new NullLogger());
        $client = $this->connect();
        $callers->accept($this->listener, false, 100.0);

        $callers->expire(109.0);
        self::assertSame('', self::readAll($client));
        $callers->expire(111.0);
        self::assertStringStartsWith('HTTP/1.1 408 ', self::readAll($client));
    }

    public function testAnIdleConnectionIsClosedAfterTheIdleTimeoutAndNotBefore(): void
    {
        $callers = new Callers(new FrontLimits(idleSeconds: 60.0), new NullLogger());
        $client = $this->connect();
        $callers->accept($this->listener, false, 100.0);
        $this->only($callers)->headSince = null; // between requests: its last one was answered

        $callers->expire(159.0);
        self::assertSame(1, $callers->count());
        $callers->expire(161.0);
        self::assertSame(0, $callers->count());
        self::assertSame('', self::readAll($client), 'closed without an answer: nothing was asked');
    }

    public function testAHeadNotCompleteWithinTheHeadTimeoutIsAnswered408WhileBytesTrickle(): void
    {
        $callers = new Callers(new FrontLimits(headSeconds: 10.0), new NullLogger());
        $client = $this->connect();
        $callers->accept($this->listener, false, 100.0);
        $connection = $this->only($callers);
        foreach (["POST http://localhost/x HTTP/1.1\r\n", "X-A: 1\r\n"] as $i => $bytes) {
            fwrite($client, $bytes);
            usleep(10_000);
            self::assertTrue($connection->read(101.0 + 8 * $i));
        }

        $callers->expire(109.5);
        self::assertSame('', self::readAll($client), 'bytes keep coming, but the head is not complete');
        $callers->expire(110.5);
        self::assertStringStartsWith('HTTP/1.1 408 Request Timeout', self::readAll($client));
        self::assertTrue($connection->closing);
    }

    public function testTheHeadTimeoutOfALaterRequestRunsFromItsFirstByte(): void
    {
        $callers = new Callers(new FrontLimits(headSeconds: 10.0), new NullLogger());
        $client = $this->connect();
        $callers->accept($this->listener, false, 100.0);
        $connection = $this->only($callers);
        $connection->headSince = null; // its first request was answered
        fwrite($client, "POST http://localhost/x HTTP/1.1\r\n");
        usleep(10_000);
        $connection->read(150.0);

        $callers->expire(159.5);
        self::assertSame('', self::readAll($client));
        $callers->expire(160.5);
        self::assertStringStartsWith('HTTP/1.1 408 ', self::readAll($client));
    }

    public function testABusyConnectionIsNeverTimedOut(): void
    {
        $callers = new Callers(new FrontLimits(idleSeconds: 1.0, headSeconds: 1.0), new NullLogger());
        $this->connect();
        $callers->accept($this->listener, false, 0.0);
        $this->only($callers)->busy = true;

        $callers->expire(1000.0);

        self::assertSame(1, $callers->count());
    }

    public function testOverTheInputBudgetOnlySmallConnectionsAndTheLargestAreRead(): void
    {
        $callers = new Callers(new FrontLimits(inputBudgetBytes: 1 << 20), new NullLogger());
        array_map(fn() => $this->connect(), range(1, 4));
        $callers->accept($this->listener, false, 0.0);
        $sizes = [600_000, 700_000, 1000, 0];
        $connections = $this->connections($callers);
        foreach ($connections as $i => $connection) {
            $connection->in = str_repeat('b', $sizes[$i]);
        }

        [$read] = $callers->selectSets();

        self::assertEqualsCanonicalizing([$connections[1]->socket, $connections[2]->socket, $connections[3]->socket], $read, 'the 600 kB one waits; the 700 kB one, largest, is read');
    }

    public function testUnderTheBudgetABusyConnectionIsReadOnlyUpToItsReadAhead(): void
    {
        $callers = new Callers(new FrontLimits(), new NullLogger());
        $this->connect();
        $callers->accept($this->listener, false, 0.0);
        $connection = $this->only($callers);
        $connection->busy = true;
        $connection->in = str_repeat('x', FrontLimits::READ_AHEAD_BYTES);

        self::assertSame([], $callers->selectSets()[0]);
        $connection->busy = false;
        self::assertSame([$connection->socket], $callers->selectSets()[0]);
    }

    /** @return resource */
    private function connect()
    {
        $client = stream_socket_client('unix://' . $this->path);
        self::assertNotFalse($client);
        $this->clients[] = $client;

        return $client;
    }

    private function only(Callers $callers): CallerConnection
    {
        $connections = $this->connections($callers);
        self::assertCount(1, $connections);

        return $connections[0];
    }

    /** @return list<CallerConnection> in the order they were accepted */
    private function connections(Callers $callers): array
    {
        $connections = (new \ReflectionProperty($callers, 'connections'))->getValue($callers);
        \assert(\is_array($connections));

        return array_values(array_filter($connections, static fn(mixed $c): bool => $c instanceof CallerConnection));
    }

    /** @param resource $client */
    private static function readAll($client): string
    {
        stream_set_blocking($client, false);
        usleep(10_000);

        return (string) stream_get_contents($client);
    }
}
