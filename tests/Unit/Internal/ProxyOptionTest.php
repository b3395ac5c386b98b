<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\ProxyOption;

/** proxy and no_proxy as curl options. */
final class ProxyOptionTest extends TestCase
{
    public function testAnHttpProxysCredentialsGoApartDecodedSoThePoolCanTellUsersApart(): void
    {
        self::assertSame(
            [\CURLOPT_PROXY => 'http://proxy.internal:3128', \CURLOPT_PROXYUSERNAME => 'me@corp', \CURLOPT_PROXYPASSWORD => 'p:ss', \CURLOPT_NOPROXY => ''],
            ProxyOption::curlOptions('http://me%40corp:p%3Ass@proxy.internal:3128', null),
        );
        self::assertSame(
            [\CURLOPT_PROXY => 'https://proxy.internal', \CURLOPT_PROXYUSERNAME => 'me', \CURLOPT_PROXYPASSWORD => '', \CURLOPT_NOPROXY => 'localhost'],
            ProxyOption::curlOptions('https://me@proxy.internal', ['localhost']),
        );
    }

    public function testSocksCredentialsStayInTheUrlWhereLibcurlComparesThem(): void
    {
        self::assertSame([\CURLOPT_PROXY => 'socks5h://me:pw@127.0.0.1:1080', \CURLOPT_NOPROXY => ''], ProxyOption::curlOptions('socks5h://me:pw@127.0.0.1:1080', null));
    }

    public function testNoProxyAloneKeepsTheEnvironmentsProxy(): void
    {
        self::assertSame([\CURLOPT_NOPROXY => '.internal,10.0.0.0/8'], ProxyOption::curlOptions(null, ['.internal', '10.0.0.0/8']));
        self::assertSame([\CURLOPT_PROXY => ''], ProxyOption::curlOptions(false, ['ignored']));
    }

    public function testAnEnvironmentWithoutAProxyIsSaidOnceSoLibcurlDoesNotLookPerRequest(): void
    {
        self::assertSame([\CURLOPT_PROXY => '', \CURLOPT_NOPROXY => ''], ProxyOption::curlOptions(null, null));
    }

    public function testAnEnvironmentProxyIsLeftToLibcurl(): void
    {
        foreach (['http_proxy', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'] as $name) {
            putenv($name . '=http://127.0.0.1:3128');
            try {
                self::assertSame([], ProxyOption::curlOptions(null, null), $name);
            } finally {
                putenv($name);
            }
        }
        // libcurl ignores an upper-case HTTP_PROXY (CGI sets it from a request header).
        putenv('HTTP_PROXY=http://127.0.0.1:3128');
        try {
            self::assertSame([\CURLOPT_PROXY => '', \CURLOPT_NOPROXY => ''], ProxyOption::curlOptions(null, null));
        } finally {
            putenv('HTTP_PROXY');
        }
    }
}
