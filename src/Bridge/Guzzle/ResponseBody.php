<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Guzzle;

use GuzzleHttp\Exception\RequestException as GuzzleRequestException;
use GuzzleHttp\Psr7\LazyOpenStream;
use GuzzleHttp\Psr7\Response;
use GuzzleHttp\Psr7\Utils;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamInterface;
use WarmHttp\Internal\Decoding\Decoder;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\Decoding\DecodingStream;

/**
 * The `decode_content`, `sink` and `stream` request options, applied to a received response
 * in the two steps Guzzle's CurlHandler takes during a transfer: the head (headers rewritten
 * for decoding, the body pointed at the still empty sink: what `on_headers` sees), then the body
 * written into the sink.
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

    /** Guzzle's Response with the sink as its body when there is one: what on_headers and the caller see. */
    private readonly Response $head;

    /** @throws GuzzleRequestException a status outside 100–599, refused as Guzzle's CurlHandler refuses it */
    private function __construct(
        private readonly RequestInterface $request,
        ResponseInterface $head,
        private readonly StreamInterface $received,
        private readonly ?StreamInterface $sink,
        private readonly ?Decoder $decoder,
    ) {
        try {
            $this->head = GuzzleResponse::from($head, $sink);
        } catch (\InvalidArgumentException $e) {
            // Guzzle's wording (CurlFactory), with the Response constructor's reason as previous.
            throw new GuzzleRequestException('An error was encountered while creating the response', $request, null, $e);
        }
    }

    /**
     * @param array<string, mixed> $options
     *
     * @throws GuzzleRequestException more stacked codings than libcurl accepts (as Guzzle's "cURL error 61"), a status outside 100–599
     */
    public static function receive(RequestInterface $request, ResponseInterface $response, array $options): self
    {
        $decode = ContentDecoding::enabled($options);
        if (($options['stream'] ?? false) === true) {
            // Guzzle's StreamHandler hands the live stream over and ignores `sink`.
            return new self($request, $decode ? ContentDecoding::streamed($response) : $response, $response->getBody(), null, null);
        }
        $sink = isset($options['sink']) ? self::sink($options['sink']) : null;
        if (!$decode || !$response->hasHeader('Content-Encoding')) {
            // Without a sink, the hot path: the pool's in-memory body, no stream opened.
            return new self($request, $response, $response->getBody(), $sink, null);
        }
        $sink ??= self::temporary();
        try {
            [$head, $decoder] = ContentDecoding::buffered($response, (int) $sink->getSize());
        } catch (DecodingFailed $e) {
            throw ErrorMap::decoding($e, $request, $response);
        }

        return new self($request, $head, $response->getBody(), $sink, $decoder);
    }

    /** The response as `on_headers` sees it: final headers, the body not written yet. */
    public function head(): Response
    {
        return $this->head;
    }

    /**
     * The response with its body in place.
     *
     * @throws GuzzleRequestException the body is not in the coding it announced (as Guzzle's "cURL error 61" or "23")
     */
    public function write(): Response
    {
        if ($this->sink === null) {
            return $this->head;
        }
        try {
            self::copy($this->received, $this->sink, $this->decoder);
        } catch (DecodingFailed $e) {
            throw ErrorMap::decoding($e, $this->request, $this->head());
        }

        return $this->head;
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

    private static function copy(StreamInterface $body, StreamInterface $sink, ?Decoder $decoder): void
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
    }
}
