<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\RequestInterface;
use Symfony\Component\Process\Process;
use WarmHttp\Client;
use WarmHttp\Internal\Options;
use WarmHttp\Relay\App\SyncRoute;

/**
 * The kept stream writes to the relay, byte for byte, what the curl hop writes (libcurl 7.88's
 * header order included: the relay passes lines on in the order they came), recorded by a
 * stand-in relay (recording-relay.php).
 */
final class RelaySyncWireTest extends TestCase
{
    private static string $dir = '';

    private static ?Process $relay = null;

    public static function setUpBeforeClass(): void
    {
        self::$dir = sys_get_temp_dir() . '/warmhttp-wire-' . bin2hex(random_bytes(4));
        mkdir(self::$dir, 0700);
        self::$relay = new Process([\PHP_BINARY, __DIR__ . '/recording-relay.php', self::$dir . '/relay.sock', self::$dir . '/log']);
        self::$relay->start();
        $deadline = microtime(true) + 5;
        while (!file_exists(self::$dir . '/relay.sock') && microtime(true) < $deadline) {
            usleep(10_000);
        }
    }

    public static function tearDownAfterClass(): void
    {
        self::$relay?->stop(0);
        array_map('unlink', glob(self::$dir . '/*') ?: []);
        @rmdir(self::$dir);
    }

    /** @return iterable<string, array{array<string, mixed>, \Closure(Client): RequestInterface}> */
    public static function requests(): iterable
    {
        yield 'GET' => [[], static fn(Client $c) => $c->createRequest('GET', 'http://api.example/a?b=1#fragment')];
        yield 'POST with a body' => [[], static fn(Client $c) => $c->createRequest('POST', 'https://api.example/a')->withHeader('Content-Type', 'application/json')->withHeader('X-Empty', '')->withBody($c->createStream('{"a":1}'))];
        yield 'PUT without a body' => [[], static fn(Client $c) => $c->createRequest('PUT', 'http://api.example/a')->withHeader('User-Agent', 'mine')->withHeader('Accept', 'text/plain')];
        yield 'PATCH, its own Content-Length' => [[], static fn(Client $c) => $c->createRequest('PATCH', 'http://api.example/a')->withHeader('Content-Length', '99')->withBody($c->createStream('patch'))];
        yield 'DELETE' => [[], static fn(Client $c) => $c->createRequest('DELETE', 'http://api.example:8080/a')];
        yield 'GET with Content-Length: 0, own Accept-Encoding, HTTP/2' => [[], static fn(Client $c) => $c->createRequest('GET', 'http://api.example/a')->withHeader('Content-Length', '0')->withHeader('Accept-Encoding', 'br')->withProtocolVersion('2')];
        yield 'GET with a body' => [[], static fn(Client $c) => $c->createRequest('GET', 'http://api.example/search')->withBody($c->createStream('q=1'))];
        yield 'repeated header, caller X-WarmHttp-*' => [[], static fn(Client $c) => $c->createRequest('GET', 'http://api.example/a')->withHeader('X-Multi', ['one', 'two'])->withHeader('X-WarmHttp-Mode', 'async')];
        yield 'Host given' => [[], static fn(Client $c) => $c->createRequest('GET', 'http://127.0.0.1/a')->withHeader('Host', 'virtual.example')];
        yield 'Client options' => [['http_version' => '1.1', 'decode_content' => false, 'relay_sync_guard' => true, 'verify' => false, 'headers' => ['X-Default' => 'd']], static fn(Client $c) => $c->createRequest('OPTIONS', 'https://api.example/')];
    }

    /**
     * @param array<string, mixed>                $options
     * @param \Closure(Client): RequestInterface $request
     */
    #[DataProvider('requests')]
    public function testTheStreamWritesWhatTheCurlHopWrites(array $options, \Closure $request): void
    {
        $options += ['relay' => 'unix://' . self::$dir . '/relay.sock', 'relay_sync' => true, 'relay_token' => 'token', 'read_timeout' => 2];
        $client = new Client($options);
        @unlink(self::$dir . '/log');

        $client->sendAsync($request($client))->wait();
        $route = SyncRoute::of(Options::fromArray($options));
        self::assertNotNull($route);
        $prepared = $request($client);
        foreach (Options::fromArray($options)->headers() as $name => $value) {
            $prepared = $prepared->withHeader($name, $value); // as Client::prepare() does before the route
        }
        self::assertNotNull($route->send($prepared));

        $written = array_map(static fn(string $line): mixed => json_decode($line), file(self::$dir . '/log', \FILE_IGNORE_NEW_LINES) ?: []);
        self::assertCount(2, $written);
        self::assertSame($written[0], $written[1]);
    }
}
