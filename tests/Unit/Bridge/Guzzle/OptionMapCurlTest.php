<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Bridge\Guzzle;

use GuzzleHttp\Psr7\Request;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Bridge\Guzzle\OptionMap;
use WarmHttp\Exception\RequestException;

/** The `curl` request option: an allow-list mapped onto Client options, the rest refused by name. */
final class OptionMapCurlTest extends TestCase
{
    public function testAllowedOptionsBecomeClientOptionsAndWinOverGuzzles(): void
    {
        $mapped = self::mapped([
            \CURLOPT_TIMEOUT_MS => 1500,
            \CURLOPT_CONNECTTIMEOUT => 3,
            \CURLOPT_SSL_VERIFYPEER => false,
            \CURLOPT_SSL_VERIFYHOST => 0,
            \CURLOPT_PROXY => 'proxy.internal:3128',
            \CURLOPT_NOPROXY => 'localhost, .internal',
        ], ['timeout' => 30]);

        self::assertSame(1.5, $mapped['timeout']);
        self::assertSame(3.0, $mapped['connect_timeout']);
        self::assertFalse($mapped['verify']);
        self::assertSame('http://proxy.internal:3128', $mapped['proxy'], 'libcurl reads a proxy without a scheme as http://');
        self::assertSame(['localhost', '.internal'], $mapped['no_proxy']);
    }

    public function testTheKeyPassphraseGoesWithTheKeyElseTheCertificate(): void
    {
        self::assertSame(['/c.pem', 'pw'], self::mapped([\CURLOPT_SSLCERT => '/c.pem', \CURLOPT_SSLCERTPASSWD => 'pw'])['cert']);
        $both = self::mapped([\CURLOPT_SSLCERT => '/c.pem', \CURLOPT_SSLKEY => '/k.pem', \CURLOPT_SSLKEYPASSWD => 'pw']);
        self::assertSame(['/c.pem', ['/k.pem', 'pw']], [$both['cert'], $both['ssl_key']]);
    }

    public function testWhatGuzzlesClientMakesOfDigestAndNtlmAuthAndTheOtherIssue14OptionsAreMapped(): void
    {
        self::assertSame(['http_auth' => ['digest', 'u', 'p:w']], self::mapped([\CURLOPT_HTTPAUTH => \CURLAUTH_DIGEST, \CURLOPT_USERPWD => 'u:p:w']));
        self::assertSame(['http_auth' => ['ntlm', 'u', '']], self::mapped([\CURLOPT_HTTPAUTH => \CURLAUTH_NTLM, \CURLOPT_USERPWD => 'u']));
        self::assertSame(['ip_resolve' => 'v6', 'capath' => '/etc/ssl/certs', 'cert_type' => 'P12', 'ssl_key_type' => 'DER'], self::mapped([\CURLOPT_IPRESOLVE => \CURL_IPRESOLVE_V6, \CURLOPT_CAPATH => '/etc/ssl/certs', \CURLOPT_SSLCERTTYPE => 'p12', \CURLOPT_SSLKEYTYPE => 'DER']));
    }

    public function testWhatThePoolAlreadySetsIsAccepted(): void
    {
        self::assertSame([], self::mapped([\CURLOPT_NOSIGNAL => 1, \CURLOPT_TCP_NODELAY => true, \CURLOPT_IPRESOLVE => \CURL_IPRESOLVE_WHATEVER, \CURLOPT_SSL_VERIFYHOST => 2, 'body_as_string' => true]));
    }

    /** @return iterable<string, array{array<int|string, mixed>, string}> */
    public static function refused(): iterable
    {
        yield 'URL' => [[\CURLOPT_URL => 'http://elsewhere/'], 'CURLOPT_URL is unsafe on a shared pool'];
        yield 'WRITEFUNCTION' => [[\CURLOPT_WRITEFUNCTION => 'strlen'], 'CURLOPT_WRITEFUNCTION is unsafe on a shared pool'];
        yield 'SHARE' => [[\CURLOPT_SHARE => null], 'CURLOPT_SHARE is unsafe on a shared pool'];
        yield 'FORBID_REUSE' => [[\CURLOPT_FORBID_REUSE => true], 'CURLOPT_FORBID_REUSE is unsafe on a shared pool'];
        yield 'HTTPAUTH without USERPWD' => [[\CURLOPT_HTTPAUTH => \CURLAUTH_DIGEST], 'CURLOPT_HTTPAUTH: the Client answers one scheme, CURLAUTH_DIGEST or CURLAUTH_NTLM, with CURLOPT_USERPWD'];
        yield 'HTTPAUTH any' => [[\CURLOPT_HTTPAUTH => \CURLAUTH_ANY, \CURLOPT_USERPWD => 'u:p'], 'CURLOPT_HTTPAUTH: the Client answers one scheme'];
        yield 'USERPWD alone' => [[\CURLOPT_USERPWD => 'u:p'], 'CURLOPT_USERPWD: the Client answers one scheme'];
        yield 'an option without a Client option' => [[\CURLOPT_LOW_SPEED_LIMIT => 10], 'CURLOPT_LOW_SPEED_LIMIT (or its value) has no WarmHttp Client option'];
        yield 'IPRESOLVE 7' => [[\CURLOPT_IPRESOLVE => 7], 'CURLOPT_IPRESOLVE (or its value)'];
        yield 'VERIFYHOST 0 alone' => [[\CURLOPT_SSL_VERIFYHOST => 0], 'CURLOPT_SSL_VERIFYHOST (or its value)'];
    }

    /** @param array<int|string, mixed> $curl */
    #[DataProvider('refused')]
    public function testRefusedByName(array $curl, string $message): void
    {
        try {
            self::mapped($curl);
            self::fail('the handler refuses this curl option');
        } catch (RequestException $e) {
            self::assertStringContainsString('"curl" is not supported', $e->getMessage());
            self::assertStringContainsString($message, $e->getMessage());
        }
    }

    /**
     * @param array<int|string, mixed> $curl
     * @param array<string, mixed>     $options
     *
     * @return array<string, mixed>
     */
    private static function mapped(array $curl, array $options = []): array
    {
        return OptionMap::toWarmHttp(new Request('GET', 'https://example.com/'), ['curl' => $curl] + $options);
    }
}
