<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Internal\ContentCodings;

/** decode_content against what this libcurl decodes. */
final class ContentCodingsTest extends TestCase
{
    public function testTheBuildsCodingsAreRead(): void
    {
        $version = curl_version();
        $features = \is_array($version) && \is_int($version['features'] ?? null) ? $version['features'] : 0;
        $expected = ($features & \CURL_VERSION_LIBZ) !== 0 ? ['gzip', 'deflate'] : [];
        if (($features & \CURL_VERSION_BROTLI) !== 0) {
            $expected[] = 'br';
        }
        if (\defined('CURL_VERSION_ZSTD') && ($features & \CURL_VERSION_ZSTD) !== 0) {
            $expected[] = 'zstd';
        }

        self::assertSame($expected, ContentCodings::decodable());
    }

    public function testTrueOffersGzipAndAListIsNormalised(): void
    {
        self::assertSame('gzip', ContentCodings::check('decode_content', true));
        self::assertFalse(ContentCodings::check('decode_content', false));
        self::assertSame('gzip, deflate, identity', ContentCodings::check('decode_content', ' GZIP,deflate , identity'));
    }

    public function testAnEmptyListIsRefused(): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Option "decode_content" must be a bool, or the codings to offer such as "gzip, br", got string \' \'');

        ContentCodings::check('decode_content', ' ');
    }
}
