<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\Decoding\Decoder;
use WarmHttp\Internal\Decoding\DecoderChain;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\Decoding\DecodingStream;
use WarmHttp\Internal\Decoding\UnknownCoding;
use WarmHttp\Internal\Decoding\ZlibDecoder;

/**
 * The `decode_content` option, as each of Guzzle's default handlers applies it: a buffered
 * request goes to its CurlHandler (libcurl decodes every coding it knows, stacked, and the
 * headers are rewritten in EasyHandle::createResponse); a `stream` request goes to its
 * StreamHandler (a first Content-Encoding line of exactly "gzip" or "deflate" is inflated
 * as it is read; anything else passes through untouched).
 *
 * @internal
 */
final class ContentDecoding
{
    /** What this handler undoes; libcurl also knows br and zstd, which PHP cannot decode without extensions. */
    public const UNDERSTOOD = 'deflate, gzip, identity';

    /** @param array<string, mixed> $options */
    public static function enabled(array $options): bool
    {
        return isset($options['decode_content']) && $options['decode_content'] !== false;
    }

    /**
     * The response with the headers Guzzle's CurlHandler gives it, and the decoder its body
     * goes through (null: nothing to undo).
     *
     * @param int $sinkSize what the sink held before the body (Guzzle keeps that as Content-Length)
     *
     * @return array{ResponseInterface, ?Decoder}
     *
     * @throws DecodingFailed more stacked codings than libcurl accepts
     */
    public static function buffered(ResponseInterface $response, int $sinkSize): array
    {
        if (!$response->hasHeader('Content-Encoding')) {
            return [$response, null];
        }
        $decoder = self::decoderFor(self::codings($response));

        return [self::moveHeaders($response, $sinkSize), $decoder];
    }

    /** The response of a `stream` request, its body decoded as it is read when Guzzle's StreamHandler would. */
    public static function streamed(ResponseInterface $response): ResponseInterface
    {
        $first = $response->getHeader('Content-Encoding')[0] ?? null;
        if ($first !== 'gzip' && $first !== 'deflate') {
            return $response;
        }

        return self::moveHeaders($response, 0)->withBody(new DecodingStream($response->getBody(), ZlibDecoder::lenient($first)));
    }

    /** @return list<string> in the order they were applied */
    private static function codings(ResponseInterface $response): array
    {
        $codings = [];
        foreach ($response->getHeader('Content-Encoding') as $line) {
            foreach (explode(',', $line) as $coding) {
                $coding = strtolower(trim($coding));
                if ($coding !== '') {
                    $codings[] = $coding;
                }
            }
        }

        return $codings;
    }

    /** @param list<string> $codings */
    private static function decoderFor(array $codings): ?Decoder
    {
        return DecoderChain::undoing($codings, self::undo(...));
    }

    private static function undo(string $coding): ?Decoder
    {
        return match ($coding) {
            'identity', 'none' => null,
            'gzip', 'x-gzip' => ZlibDecoder::gzip(),
            'deflate' => ZlibDecoder::deflate(),
            'br', 'zstd' => new UnknownCoding(DecodingFailed::unknownCoding($coding, self::UNDERSTOOD, \sprintf(
                'Guzzle\'s CurlHandler has libcurl decode %s; WarmHttp\Bridge\Guzzle\Handler asks only for codings it can decode (it takes %s out of Accept-Encoding), but this server sent it anyway.',
                $coding,
                $coding,
            ))),
            default => new UnknownCoding(DecodingFailed::unknownCoding($coding, self::UNDERSTOOD)),
        };
    }

    /** Guzzle's bookkeeping: the coding and the encoded length stay visible under x-encoded-*. */
    private static function moveHeaders(ResponseInterface $response, int $sinkSize): ResponseInterface
    {
        $moved = $response
            ->withHeader('x-encoded-content-encoding', $response->getHeader('Content-Encoding'))
            ->withoutHeader('Content-Encoding');
        if (!$response->hasHeader('Content-Length')) {
            return $moved;
        }
        $moved = $moved->withHeader('x-encoded-content-length', $response->getHeader('Content-Length'));

        return $sinkSize > 0 ? $moved->withHeader('Content-Length', (string) $sinkSize) : $moved->withoutHeader('Content-Length');
    }
}
