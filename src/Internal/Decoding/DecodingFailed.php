<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Decoding;

/**
 * A body that does not decode as announced. Carries the libcurl error number libcurl reports
 * for the same body when it decodes (CURLE_BAD_CONTENT_ENCODING, or CURLE_WRITE_ERROR for bytes
 * after the end of a compressed stream), so callers that mirror libcurl can say the same.
 *
 * @internal
 */
final class DecodingFailed extends \RuntimeException
{
    public const BAD_CONTENT_ENCODING = 61;

    public const WRITE_ERROR = 23;

    /** libcurl 7.84+ refuses more stacked codings than this (CVE-2022-32206: unbounded decompression chains). */
    public const MAX_CODINGS = 5;

    public static function corrupt(string $coding, string $why): self
    {
        return new self(\sprintf('Error while processing content unencoding: %s (the body is not valid %s data)', $why, $coding), self::BAD_CONTENT_ENCODING);
    }

    public static function trailingBytes(string $coding): self
    {
        // libcurl's own words for it; it fails the transfer the same way.
        return new self(\sprintf('Failed writing received data to disk/application (bytes follow the end of the %s stream)', $coding), self::WRITE_ERROR);
    }

    public static function unknownCoding(string $coding, string $understood, string $why = ''): self
    {
        return new self(\sprintf(
            'Unrecognized content encoding type "%s".%s WarmHttp understands %s content encodings; send the request with decode_content => false to receive the body as it came.',
            $coding,
            $why === '' ? '' : ' ' . $why,
            $understood,
        ), self::BAD_CONTENT_ENCODING);
    }

    public static function tooManyCodings(int $count): self
    {
        return new self(\sprintf('Reject response due to more than %d content encodings (it lists %d)', self::MAX_CODINGS, $count), self::BAD_CONTENT_ENCODING);
    }

    public function curlErrno(): int
    {
        return $this->getCode();
    }
}
