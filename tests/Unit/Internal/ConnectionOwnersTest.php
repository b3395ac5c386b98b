<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\ConnectionOwners;

/** Which transfers the pool keeps off other identities' connections (issue 14 for NTLM). */
final class ConnectionOwnersTest extends TestCase
{
    private const APART = [\CURLOPT_FRESH_CONNECT => true, \CURLOPT_FORBID_REUSE => true, \CURLOPT_HTTP_VERSION => \CURL_HTTP_VERSION_1_1, \CURLOPT_PIPEWAIT => false];

    public function testPlainOptionsAndPerRequestSchemesConcernNobody(): void
    {
        self::assertFalse(ConnectionOwners::concern([\CURLOPT_URL => 'https://a.test/']));
        self::assertFalse(ConnectionOwners::concern(self::auth(\CURLAUTH_BASIC, 'ann')));
        self::assertFalse(ConnectionOwners::concern(self::auth(\CURLAUTH_DIGEST, 'ann')));
        self::assertTrue(ConnectionOwners::concern(self::auth(\CURLAUTH_NTLM, 'ann')));
        self::assertTrue(ConnectionOwners::concern(self::auth(\CURLAUTH_ANY, 'ann')), 'any scheme may turn out to be NTLM');
        self::assertTrue(ConnectionOwners::concern(self::auth(\CURLAUTH_DIGEST | \CURLAUTH_NTLM, 'ann')));
        self::assertTrue(ConnectionOwners::concern(self::auth(\CURLAUTH_NEGOTIATE, 'ann')));
        self::assertTrue(ConnectionOwners::concern([\CURLOPT_PROXYUSERNAME => 'p']));
        self::assertTrue(ConnectionOwners::concern([\CURLOPT_SSLCERT => '/c.pem']));
    }

    public function testTheFirstNtlmUserOfAnOriginKeepsWarmConnectionsAndOthersGetTheirOwn(): void
    {
        $owners = new ConnectionOwners();
        self::assertSame([], $owners->apart(self::auth(\CURLAUTH_NTLM, 'ann')));
        self::assertSame(self::APART, $owners->apart(self::auth(\CURLAUTH_NTLM, 'bob')));
        self::assertSame(self::APART, $owners->apart(self::auth(\CURLAUTH_NTLM, 'ann', 'other password')));
        self::assertSame([], $owners->apart(self::auth(\CURLAUTH_ANY, 'ann')), 'the same user, whatever schemes it offers');
        self::assertSame([], $owners->apart(self::auth(\CURLAUTH_NTLM, 'bob', 'pw', 'https://b.test/')), 'another origin has its own owner');
        self::assertSame([], $owners->apart(self::auth(\CURLAUTH_NTLM, 'ann', 'pw', 'https://A.test:443/other')), 'the origin, not the URL');
        self::assertSame(self::APART, $owners->apart(self::auth(\CURLAUTH_NTLM, 'bob', 'pw', 'https://a.test:443/y')), 'the default port written out');
    }

    public function testAnNtlmUserBehindAProxyIsAnotherEndpoint(): void
    {
        $owners = new ConnectionOwners();
        self::assertSame([], $owners->apart(self::auth(\CURLAUTH_NTLM, 'ann')));
        self::assertSame([], $owners->apart([\CURLOPT_PROXY => 'http://proxy.test:3128'] + self::auth(\CURLAUTH_NTLM, 'bob')));
    }

    public function testEveryIdentityOfATransferMustBeTheOwnersToShare(): void
    {
        $owners = new ConnectionOwners();
        $proxy = [\CURLOPT_PROXY => 'http://proxy.test:3128', \CURLOPT_PROXYUSERNAME => 'p1', \CURLOPT_PROXYPASSWORD => 'x'];
        self::assertSame([], $owners->apart($proxy + self::auth(\CURLAUTH_NTLM, 'ann')));
        self::assertSame(self::APART, $owners->apart($proxy + self::auth(\CURLAUTH_NTLM, 'bob')), 'the proxy user owns, the NTLM user does not');
        self::assertSame(self::APART, $owners->apart([\CURLOPT_PROXYUSERNAME => 'p2'] + $proxy + self::auth(\CURLAUTH_NTLM, 'ann')));
        self::assertSame([], $owners->apart([\CURLOPT_SSLCERT => '/c.pem', \CURLOPT_SSLKEY => '/k.pem']));
        self::assertSame(self::APART, $owners->apart([\CURLOPT_SSLCERT => '/c.pem', \CURLOPT_SSLKEY => '/k.pem', \CURLOPT_KEYPASSWD => 'wrong']));
    }

    /** @return array<int, mixed> */
    private static function auth(int $schemes, string $user, string $password = 'pw', string $url = 'https://a.test/x'): array
    {
        return [\CURLOPT_URL => $url, \CURLOPT_HTTPAUTH => $schemes, \CURLOPT_USERNAME => $user, \CURLOPT_PASSWORD => $password];
    }
}
