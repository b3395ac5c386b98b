<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Exception\InvalidArgumentException as GuzzleInvalidArgumentException;
use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\OptionMap;

/**
 * Values Guzzle's CurlHandler refuses are refused with its exception class and message (the
 * messages are Guzzle 7.16's, checked side by side in GuzzleParityOptionsTest).
 */
final class OptionMapChecksTest extends TestCase
{
    /** @return iterable<string, array{array<string, mixed>, class-string<\Throwable>, string, string}> */
    public static function invalid(): iterable
    {
        $iae = \InvalidArgumentException::class;
        yield 'on_headers' => [['on_headers' => 'x'], $iae, 'on_headers must be callable', '1.1'];
        yield 'on_trailers' => [['on_trailers' => 'x'], $iae, 'on_trailers must be callable', '1.1'];
        yield 'progress' => [['progress' => 5], $iae, 'progress client option must be callable', '1.1'];
        yield 'crypto_method' => [['crypto_method' => 12345], $iae, 'Invalid crypto_method request option: unknown version provided', '1.1'];
        yield 'crypto_method_max' => [['crypto_method_max' => 'tls'], $iae, 'Invalid crypto_method_max request option: unknown version provided', '1.1'];
        yield 'crypto range' => [['crypto_method' => \STREAM_CRYPTO_METHOD_TLSv1_2_CLIENT, 'crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT], $iae, 'Invalid crypto_method_max request option: maximum TLS version must be greater than or equal to crypto_method', '1.1'];
        yield 'crypto max on h2' => [['crypto_method_max' => \STREAM_CRYPTO_METHOD_TLSv1_1_CLIENT], $iae, 'Invalid crypto_method_max request option: HTTP/2 requires TLS 1.2 or higher', '2.0'];
        yield 'cert type' => [['cert' => 5], $iae, 'Invalid cert request option', '1.1'];
        yield 'cert passphrase' => [['cert' => ['/x.pem', 5]], $iae, 'Invalid cert request option', '1.1'];
        yield 'cert missing' => [['cert' => '/nonexistent/cert.pem'], $iae, 'SSL certificate not found: /nonexistent/cert.pem', '1.1'];
        yield 'ssl_key missing' => [['ssl_key' => ['/nonexistent/key.pem', 'p']], $iae, 'SSL private key not found: /nonexistent/key.pem', '1.1'];
        yield 'ssl_key type' => [['ssl_key' => []], $iae, 'Invalid ssl_key request option', '1.1'];
        yield 'CA bundle missing' => [['verify' => '/nonexistent/ca.pem'], $iae, 'SSL CA bundle not found: /nonexistent/ca.pem', '1.1'];
        yield 'multiplex' => [['multiplex' => true], $iae, 'The "multiplex" option must be null or a GuzzleHttp\\Multiplexing::* constant; received bool.', '1.1'];
        yield 'protocols empty' => [['protocols' => []], GuzzleInvalidArgumentException::class, 'protocols must be a non-empty array of "http" and/or "https"', '1.1'];
        yield 'protocols ftp' => [['protocols' => ['ftp']], GuzzleInvalidArgumentException::class, 'protocols may only contain "http" and "https"', '1.1'];
        yield 'protocols int' => [['protocols' => [1]], GuzzleInvalidArgumentException::class, 'protocols must contain only strings', '1.1'];
        yield 'scheme outside protocols' => [['protocols' => ['https']], GuzzleRequestException::class, 'The scheme "http" is not allowed by the protocols request option.', '1.1'];
    }

    /**
     * @param array<string, mixed>     $options
     * @param class-string<\Throwable> $class
     */
    #[DataProvider('invalid')]
    public function testRefusedAsGuzzleRefusesIt(array $options, string $class, string $message, string $version): void
    {
        try {
            OptionMap::toWarmHttp(new Request('GET', 'http://127.0.0.1/', [], null, $version), $options);
            self::fail('Guzzle refuses this value');
        } catch (\Throwable $e) {
            self::assertSame($class, $e::class);
            self::assertSame($message, $e->getMessage());
        }
    }

    public function testValuesGuzzlesCurlHandlerAcceptsPass(): void
    {
        $request = new Request('GET', 'http://127.0.0.1/');

        self::assertSame([], OptionMap::toWarmHttp($request, ['stream_context' => 'x', 'verify' => 10, 'protocols' => ['http'], 'on_headers' => null]));
    }
}
