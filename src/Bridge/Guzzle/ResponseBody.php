<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Psr7\LazyOpenStream;
use GuzzleHttp\Psr7\Utils;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\Decoding\Decoder;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\Decoding\DecodingStream;

/**
 * The `decode_content`, `sink` and `stream` request options, applied to a received response
 * the way Guzzle's default handlers apply them during a transfer.
 *
 * Decoding never holds a decoded body whole in memory: the encoded bytes go through the
 * decoder a slice at a time into the sink (php://temp when none is given, as with Guzzle, so
 * a large body spills to a temporary file), or, for `stream`, as the caller reads.
 *
 * @internal
 */
final class ResponseBody
{
    private const CHUNK_BYTES = 65536;

    /**
     * @param array<string, mixed> $options
     *
     * @throws GuzzleRequestException the body is not in the coding it announced (as Guzzle's "cURL error 61")
     */
    public static function finish(RequestInterface $request, ResponseInterface $response, array $options): ResponseInterface
    {
        $decode = ContentDecoding::enabled($options);
        if (($options['stream'] ?? false) === true) {
            // Guzzle's StreamHandler hands the live stream over and ignores `sink`.
            return $decode ? ContentDecoding::streamed($response) : $response;
        }
        $sink = isset($options['sink']) ? self::sink($options['sink']) : null;
        if ($decode && $response->hasHeader('Content-Encoding')) {
            return self::decodeInto($request, $response, $sink ?? self::temporary());
        }
        if ($sink === null) {
            return $response; // the hot path: the pool's in-memory body, no stream opened
        }

        return $response->withBody(self::copyTo($response->getBody(), $sink, null));
    }

    private static function decodeInto(RequestInterface $request, ResponseInterface $response, StreamInterface $sink): ResponseInterface
    {
        try {
            [$response, $decoder] = ContentDecoding::buffered($response, (int) $sink->getSize());

            return $response->withBody(self::copyTo($response->getBody(), $sink, $decoder));
        } catch (DecodingFailed $e) {
            throw ErrorMap::decoding($e, $request, $response);
        }
    }

    private static function temporary(): StreamInterface
    {
        return Utils::streamFor(Utils::tryFopen('php://temp', 'w+'));
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

    private static function copyTo(StreamInterface $body, StreamInterface $sink, ?Decoder $decoder): StreamInterface
    {
        if ($body->isSeekable()) {
            $body->rewind();
        }
        // Slices small enough that one decodes to a few MiB at most, whatever the ratio.
        $slice = $decoder === null ? self::CHUNK_BYTES : DecodingStream::INPUT_BYTES;
        while (!$body->eof()) {
            $chunk = $body->read($slice);
            if ($chunk === '') {
                break;
            }
            $bytes = $decoder === null ? $chunk : $decoder->add($chunk);
            if ($bytes !== '') {
                $sink->write($bytes);
            }
        }
        if ($sink->isSeekable()) {
            $sink->rewind();
        }

        return $sink;
    }
}
