<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use WarmHttp\Internal\ContentCodings;
use WarmHttp\Internal\Decoding\Decoder;
use WarmHttp\Internal\Decoding\DecoderChain;
use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\Decoding\UnknownCoding;
use WarmHttp\Internal\Decoding\ZlibDecoder;

/**
 * The body of a relay_sync answer read over the kept stream, as the curl hop collects it:
 * decoded as it arrives where curl decodes (it offered the codings itself, `decode_content`),
 * and held to `max_response_bytes` in decoded bytes (CappedBuffer), or at once by an announced
 * Content-Length over it (CURLOPT_MAXFILESIZE).
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 */
final class SyncBody
{
    /** libcurl's order when it names what it understands. */
    private const CURL_ORDER = ['deflate', 'gzip', 'br', 'zstd'];

    private string $data = '';

    private ?Decoder $decoder;

    /**
     * @param list<string> $codings the answer's content codings, in the order they were applied
     *
     * @throws DecodingFailed more stacked codings than libcurl accepts
     */
    public function __construct(array $codings, private ?int $maxBytes)
    {
        $this->decoder = self::decoderFor($codings);
    }

    /**
     * Content-Encoding of a head, in the order the codings were applied.
     *
     * @return list<string>
     */
    public static function codings(string $head): array
    {
        if (stripos($head, "\r\ncontent-encoding:") === false || preg_match_all('/\r\ncontent-encoding:[ \t]*([^\r]*)/i', $head, $lines) === 0) {
            return [];
        }
        $codings = [];
        foreach ($lines[1] as $line) {
            foreach (explode(',', $line) as $coding) {
                $coding = strtolower(trim($coding));
                if ($coding !== '') {
                    $codings[] = $coding;
                }
            }
        }

        return $codings;
    }

    /** @throws HopFailure a Content-Length over `max_response_bytes` (libcurl: "Maximum file size exceeded") */
    public function announced(string $head): void
    {
        if ($this->maxBytes !== null && preg_match('/\r\ncontent-length:[ \t]*(\d+)/i', $head, $m) === 1 && (int) $m[1] > $this->maxBytes) {
            throw HopFailure::curl(\CURLE_FILESIZE_EXCEEDED, 'Maximum file size exceeded', $this->maxBytes);
        }
    }

    /**
     * @throws DecodingFailed
     * @throws HopFailure     past `max_response_bytes`
     */
    public function add(string $piece): void
    {
        $this->data .= $this->decoder === null ? $piece : $this->decoder->add($piece);
        if ($this->maxBytes !== null && \strlen($this->data) > $this->maxBytes) {
            throw HopFailure::curl(\CURLE_WRITE_ERROR, 'Failure writing output to destination', $this->maxBytes);
        }
    }

    public function contents(): string
    {
        return $this->data;
    }

    /**
     * No Content-Encoding (most answers) loads no decoding class: three files less per PHP-FPM
     * request (DecoderChain, Decoder, DecodingFailed).
     *
     * @param list<string> $codings
     */
    private static function decoderFor(array $codings): ?Decoder
    {
        return $codings === [] ? null : DecoderChain::undoing($codings, self::undo(...));
    }

    private static function undo(string $coding): ?Decoder
    {
        return match ($coding) {
            'identity', 'none' => null,
            'gzip', 'x-gzip' => ZlibDecoder::gzip(),
            'deflate' => ZlibDecoder::deflate(),
            default => new UnknownCoding(new DecodingFailed(\sprintf(
                'Unrecognized content encoding type. libcurl understands %s content encodings.',
                implode(', ', array_intersect(self::CURL_ORDER, ContentCodings::decodable())),
            ), DecodingFailed::BAD_CONTENT_ENCODING)),
        };
    }
}
