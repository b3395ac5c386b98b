<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\Exception\RequestException;
use GuzzleHttp\HandlerStack;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Http\Message\ResponseInterface;
use Symfony\Component\Process\Process;
use WarmHttp\Bridge\Guzzle\Handler;
use WarmHttp\Rig\TempDir;
use WarmHttp\Tests\Integration\Bridge\Support\PhpOrigin;

/**
 * decode_content through WarmHttp's Guzzle handler against Guzzle's own default handler, side by
 * side on the same loopback answers: well-formed, empty, stacked, corrupt, truncated codings,
 * buffered and `stream`; and a gzip bomb (1 MiB that inflates to 1 GiB), which must go through
 * in bounded memory, as it does with Guzzle's handler.
 */
final class GuzzleDecodingTest extends TestCase
{
    private const BOMB_BYTES = 1 << 30;

    private static ?PhpOrigin $origin = null;

    private static ?TempDir $dir = null;

    public static function setUpBeforeClass(): void
    {
        self::$dir = TempDir::create('guzzle-decoding');
        $bomb = self::$dir->path('bomb.gz');
        self::writeBomb($bomb, self::BOMB_BYTES);
        self::$origin = PhpOrigin::start(__DIR__ . '/Support/guzzle-decoding-router.php', ['WARMHTTP_BOMB' => $bomb]);
    }

    public static function tearDownAfterClass(): void
    {
        self::$origin = null;
        self::$dir?->remove();
        self::$dir = null;
    }

    /** @return iterable<string, array{string, string, array<string, bool>}> */
    public static function answers(): iterable
    {
        $cases = ['gzip', 'x-gzip', 'upper-gzip', 'zlib-as-gzip', 'deflate', 'raw-deflate', 'stacked', 'identity', 'unknown',
            'truncated', 'corrupt', 'trailing', 'two-members', 'deflate-trailing', 'empty', 'six-codings'];
        $modes = [
            'buffered' => ['stream' => false],
            'stream' => ['stream' => true],
            'not decoded' => ['decode_content' => false],
            'stream, not decoded' => ['stream' => true, 'decode_content' => false],
        ];
        foreach ($modes as $mode => $options) {
            foreach ($cases as $case) {
                yield "$case, $mode" => ['GET', '/encoded/' . $case, $options];
            }
            yield "HEAD, $mode" => ['HEAD', '/encoded/gzip', $options];
            yield "204, $mode" => ['GET', '/encoded/gzip?status=204', $options];
            yield "304, $mode" => ['GET', '/encoded/gzip?status=304', $options];
            yield "HEAD unknown coding, $mode" => ['HEAD', '/encoded/unknown', $options];
        }
    }

    /** @param array<string, bool> $options */
    #[DataProvider('answers')]
    public function testDecodesAsGuzzlesDefaultHandlerDoes(string $method, string $path, array $options): void
    {
        $url = self::origin()->url($path);

        self::assertSame(
            self::observe(new GuzzleClient(['http_errors' => false]), $method, $url, $options),
            self::observe(self::bridged(), $method, $url, $options),
        );
    }

    public function testAskedForNothingSendsNoAcceptEncodingAsGuzzleDoes(): void
    {
        $url = self::origin()->url('/echo-accept-encoding');

        self::assertSame('(none)', (string) self::bridged()->get($url)->getBody());
        self::assertSame((string) (new GuzzleClient())->get($url)->getBody(), (string) self::bridged()->get($url)->getBody());
        self::assertSame('gzip, deflate', (string) self::bridged()->get($url, ['headers' => ['Accept-Encoding' => 'gzip, deflate']])->getBody());
        self::assertSame('gzip', (string) self::bridged()->get($url, ['decode_content' => 'gzip'])->getBody());
        self::assertSame((string) (new GuzzleClient())->get($url, ['stream' => true])->getBody(), (string) self::bridged()->get($url, ['stream' => true])->getBody());
    }

    public function testBrotliAndZstdAreNotAskedForSinceTheyCannotBeDecodedHere(): void
    {
        $url = self::origin()->url('/echo-accept-encoding');

        self::assertSame('gzip, deflate', (string) self::bridged()->get($url, ['headers' => ['Accept-Encoding' => 'gzip, deflate, br, zstd']])->getBody());
        self::assertSame('(none)', (string) self::bridged()->get($url, ['headers' => ['Accept-Encoding' => 'br']])->getBody());
        // Not decoding, or streaming (Guzzle's StreamHandler passes br through): the header goes as given.
        self::assertSame('gzip, br', (string) self::bridged()->get($url, ['headers' => ['Accept-Encoding' => 'gzip, br'], 'decode_content' => false])->getBody());
        self::assertSame('gzip, br', (string) self::bridged()->get($url, ['headers' => ['Accept-Encoding' => 'gzip, br'], 'stream' => true])->getBody());
    }

    public function testOnHeadersSeesTheDecodingHeadersBeforeAnyBodyAsWithGuzzle(): void
    {
        /** @return array{array<string, array<string>>, ?int} */
        $observe = static function (GuzzleClient $client): array {
            $seen = [[], null];
            $client->get(self::origin()->url('/encoded/gzip'), ['on_headers' => static function (ResponseInterface $response) use (&$seen): void {
                $seen = [$response->getHeaders(), $response->getBody()->getSize()];
            }]);

            return $seen;
        };
        $seen = $observe(self::bridged());

        self::assertSame($observe(new GuzzleClient()), $seen);
        self::assertArrayHasKey('x-encoded-content-encoding', $seen[0]);
    }

    public function testAThrowingOnHeadersLeavesTheSinkEmptyAsWithGuzzle(): void
    {
        foreach (['guzzle' => new GuzzleClient(), 'bridge' => self::bridged()] as $name => $client) {
            $sink = self::$dir?->path("sink-$name") ?? '';
            try {
                $client->get(self::origin()->url('/encoded/gzip'), ['sink' => $sink, 'on_headers' => static function (): void {
                    throw new \RuntimeException('not this one');
                }]);
                self::fail("$name: the request did not fail");
            } catch (RequestException $e) {
                self::assertSame('An error was encountered during the on_headers event', $e->getMessage(), $name);
            }
            clearstatcache();
            self::assertSame(0, @filesize($sink) ?: 0, "$name: nothing decoded into the sink");
        }
    }

    public function testGzipBombIsDecodedInBoundedMemoryIntoATemporaryFile(): void
    {
        $ours = self::inChild('warm', false);
        $guzzles = self::inChild('guzzle', false);

        self::assertSame(self::BOMB_BYTES, $ours['bytes'], 'the whole bomb is decoded, as with Guzzle: ' . json_encode($ours));
        self::assertSame($guzzles['bytes'], $ours['bytes']);
        self::assertLessThan(20 << 20, $ours['peak'], \sprintf('peak %d bytes with the bridge, %d with Guzzle\'s handler', $ours['peak'], $guzzles['peak']));
    }

    public function testStreamedGzipBombIsDecodedAsItIsRead(): void
    {
        $ours = self::inChild('warm', true);

        self::assertSame(self::BOMB_BYTES, $ours['bytes'], json_encode($ours) ?: '');
        self::assertLessThan(20 << 20, $ours['peak'], \sprintf('peak %d bytes', $ours['peak']));
    }

    public function testStreamedGzipCanBeReadBeforeTheWholeBodyArrived(): void
    {
        $started = microtime(true);
        $body = self::bridged()->get(self::origin()->url('/paused-gzip?ms=3000'), ['stream' => true])->getBody();
        $first = $body->read(18);
        $firstAfter = microtime(true) - $started;
        $rest = $body->getContents();

        self::assertSame('before the pause. ', $first);
        self::assertLessThan(2.0, $firstAfter, 'the first decoded bytes waited for the end of the body');
        self::assertSame(str_repeat('before the pause. ', 4096) . str_repeat('after the pause. ', 4096), $first . $rest);
    }

    /**
     * What a caller sees: status, decoded body and the headers decoding touches; or the failure
     * (class, libcurl error number, the start of the message that code matches on).
     *
     * @param array<string, mixed> $options
     *
     * @return array<string, mixed>
     */
    private static function observe(GuzzleClient $client, string $method, string $url, array $options): array
    {
        try {
            $response = $client->request($method, $url, $options);
            $body = @(string) $response->getBody(); // Guzzle's zlib filter also raises a notice
        } catch (\Throwable $e) {
            $context = $e instanceof RequestException ? $e->getHandlerContext() : [];
            preg_match('/^(cURL error \d+|Unable to read from stream)/', $e->getMessage(), $start);

            return ['failure' => $e::class, 'errno' => $context['errno'] ?? null, 'message starts' => $start[1] ?? $e->getMessage()];
        }
        $headers = [];
        foreach (['Content-Encoding', 'Content-Length', 'x-encoded-content-encoding', 'x-encoded-content-length'] as $name) {
            $headers[$name] = $response->getHeader($name);
        }

        return ['status' => $response->getStatusCode(), 'body' => md5($body), 'length' => \strlen($body), 'headers' => $headers];
    }

    /** @return array{bytes: int, peak: int} */
    private static function inChild(string $handler, bool $stream): array
    {
        $code = <<<'PHP'
            require $argv[1];
            [, , $handler, $stream, $url] = $argv;
            $options = $handler === 'warm' ? ['handler' => GuzzleHttp\HandlerStack::create(new WarmHttp\Bridge\Guzzle\Handler())] : [];
            $body = (new GuzzleHttp\Client($options))->get($url, ['stream' => $stream === '1'])->getBody();
            $bytes = 0;
            while (($chunk = $body->read(1 << 20)) !== '') {
                $bytes += strlen($chunk);
            }
            echo json_encode(['bytes' => $bytes, 'peak' => memory_get_peak_usage()]);
            PHP;
        $process = new Process([\PHP_BINARY, '-d', 'memory_limit=128M', '-r', $code, '--', \dirname(__DIR__, 3) . '/vendor/autoload.php', $handler, $stream ? '1' : '0', self::origin()->url('/bomb')]);
        $process->setTimeout(120);
        $process->run();
        self::assertTrue($process->isSuccessful(), $process->getErrorOutput() . $process->getOutput());
        $result = json_decode($process->getOutput(), true);
        self::assertIsArray($result, $process->getOutput());
        self::assertIsInt($result['bytes'] ?? null);
        self::assertIsInt($result['peak'] ?? null);

        return ['bytes' => $result['bytes'], 'peak' => $result['peak']];
    }

    /** A gzip file of $bytes zero bytes, written a MiB at a time (about 1 MiB per GiB). */
    private static function writeBomb(string $path, int $bytes): void
    {
        $deflate = deflate_init(\ZLIB_ENCODING_GZIP, ['level' => 9]);
        $file = fopen($path, 'w');
        self::assertNotFalse($deflate);
        self::assertNotFalse($file);
        $zeros = str_repeat("\0", 1 << 20);
        for ($written = 0; $written < $bytes; $written += \strlen($zeros)) {
            fwrite($file, (string) deflate_add($deflate, $zeros, \ZLIB_NO_FLUSH));
        }
        fwrite($file, (string) deflate_add($deflate, '', \ZLIB_FINISH));
        fclose($file);
    }

    private static function bridged(): GuzzleClient
    {
        return new GuzzleClient(['http_errors' => false, 'handler' => HandlerStack::create(new Handler())]);
    }

    private static function origin(): PhpOrigin
    {
        return self::$origin ?? throw new \LogicException('The origin starts in setUpBeforeClass().');
    }
}
