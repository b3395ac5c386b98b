<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Psr7\LazyOpenStream;
use GuzzleHttp\Psr7\Utils;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;

/**
 * The `decode_content` and `sink` request options, applied to a received response the way
 * Guzzle's EasyHandle and CurlFactory apply them during a transfer.
 *
 * @internal
 */
final class ResponseBody
{
    private const CHUNK_BYTES = 65536;

    /** @param array<string, mixed> $options */
    public static function finish(ResponseInterface $response, array $options): ResponseInterface
    {
        if (($options['decode_content'] ?? true) !== false) {
            $response = self::decode($response);
        }
        if (isset($options['sink'])) {
            $response = $response->withBody(self::copyTo($response->getBody(), self::sink($options['sink'])));
        }

        return $response;
    }

    /**
     * Guzzle asks libcurl to decode; the pool does not, so gzip and deflate are undone here,
     * with Guzzle's header bookkeeping (x-encoded-content-encoding, x-encoded-content-length).
     */
    private static function decode(ResponseInterface $response): ResponseInterface
    {
        $encoding = strtolower(trim($response->getHeaderLine('Content-Encoding')));
        if (!\in_array($encoding, ['gzip', 'x-gzip', 'deflate'], true)) {
            return $response;
        }
        $raw = (string) $response->getBody();
        $decoded = @zlib_decode($raw);
        if ($decoded === false) {
            $decoded = @gzinflate($raw); // "deflate" sent raw, without the zlib wrapper
        }
        if ($decoded === false) {
            throw new \RuntimeException(\sprintf('The response says Content-Encoding: %s but its body does not decode as such.', $encoding));
        }
        $response = $response
            ->withHeader('x-encoded-content-encoding', $response->getHeader('Content-Encoding'))
            ->withoutHeader('Content-Encoding')
            ->withBody(Utils::streamFor($decoded));
        if ($response->hasHeader('Content-Length')) {
            // Guzzle drops it too: its EasyHandle rewrites headers before any body arrived.
            $response = $response
                ->withHeader('x-encoded-content-length', $response->getHeader('Content-Length'))
                ->withoutHeader('Content-Length');
        }

        return $response;
    }

    private static function sink(mixed $sink): StreamInterface
    {
        if (!\is_string($sink)) {
            /** @phpstan-ignore argument.type (Guzzle accepts a resource or a StreamInterface here; streamFor says what else fails) */
            return Utils::streamFor($sink);
        }
        if (!is_dir(\dirname($sink))) {
            throw new \RuntimeException(\sprintf('Directory %s does not exist for sink value of %s', \dirname($sink), $sink));
        }

        return new LazyOpenStream($sink, 'w+');
    }

    private static function copyTo(StreamInterface $body, StreamInterface $sink): StreamInterface
    {
        if ($body->isSeekable()) {
            $body->rewind();
        }
        while (!$body->eof()) {
            $chunk = $body->read(self::CHUNK_BYTES);
            if ($chunk === '') {
                break;
            }
            $sink->write($chunk);
        }
        if ($sink->isSeekable()) {
            $sink->rewind();
        }

        return $sink;
    }
}
