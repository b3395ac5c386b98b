<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\CurlErrors;
use WarmHttp\Internal\FailureKind;

final class CurlErrorsTest extends TestCase
{
    /** @return iterable<string, array{int, bool}> */
    public static function deadConnections(): iterable
    {
        yield 'got nothing' => [\CURLE_GOT_NOTHING, true];
        yield 'send error' => [\CURLE_SEND_ERROR, true];
        yield 'receive error' => [\CURLE_RECV_ERROR, true];
        yield 'HTTP/2 framing error' => [16, true];
        yield 'HTTP/2 stream reset' => [92, true];
        yield 'connection refused' => [\CURLE_COULDNT_CONNECT, false];
        yield 'timeout' => [\CURLE_OPERATION_TIMEDOUT, false];
        yield 'TLS handshake' => [\CURLE_SSL_CONNECT_ERROR, false];
    }

    #[DataProvider('deadConnections')]
    public function testTellsAConnectionThatDiedUnderTheRequest(int $errno, bool $dead): void
    {
        self::assertSame($dead, CurlErrors::isDeadConnection($errno));
    }

    /** @return iterable<string, array{int, string}> */
    public static function networkErrors(): iterable
    {
        yield 'DNS' => [\CURLE_COULDNT_RESOLVE_HOST, 'the host name could not be resolved'];
        yield 'refused' => [\CURLE_COULDNT_CONNECT, 'the connection was refused or could not be made'];
        yield 'nothing back' => [\CURLE_GOT_NOTHING, 'the server closed the connection without sending a response'];
        yield 'reset' => [\CURLE_RECV_ERROR, 'reset by peer?'];
        yield 'truncated' => [\CURLE_PARTIAL_FILE, 'the response was truncated'];
        yield 'not HTTP' => [\CURLE_WEIRD_SERVER_REPLY, 'not a valid HTTP response'];
        yield 'certificate' => [\CURLE_SSL_PEER_CERTIFICATE, 'set "cafile" to your CA bundle'];
        yield 'bad CA file' => [\CURLE_SSL_CACERT_BADFILE, 'the CA bundle given in "cafile" could not be read'];
        yield 'not rewound' => [65, 'send an Idempotency-Key header to allow a retry'];
        yield 'HTTP/2 stream' => [92, 'the HTTP/2 stream was reset by the server'];
        yield 'unsupported protocol without a redirect' => [\CURLE_UNSUPPORTED_PROTOCOL, 'unsupported or malformed HTTP response'];
        yield 'a write error without a size cap' => [\CURLE_WRITE_ERROR, 'a transport error occurred'];
        yield 'an unlisted error' => [\CURLE_LDAP_CANNOT_BIND, 'a transport error occurred'];
    }

    #[DataProvider('networkErrors')]
    public function testANetworkErrorSaysWhatItMeansAndKeepsCurlsWords(int $errno, string $meaning): void
    {
        $failure = CurlErrors::classify($errno, 'curl says so', [], null);

        self::assertSame(FailureKind::Network, $failure->kind);
        self::assertStringContainsString($meaning, $failure->what);
        self::assertStringEndsWith(\sprintf('(curl error %d: curl says so)', $errno), $failure->what);
        self::assertSame($errno, $failure->curlErrno);
    }

    public function testATimeoutAfterConnectingNamesTheTimeoutOptionAndTheTimeTaken(): void
    {
        $failure = CurlErrors::classify(\CURLE_OPERATION_TIMEDOUT, '', ['connect_time_us' => 1000, 'num_connects' => 1, 'total_time_us' => 2500000], null);

        self::assertSame(FailureKind::Timeout, $failure->kind);
        self::assertSame('no complete response within the "timeout" option (2.500 s elapsed)', $failure->what);
        self::assertSame(\CURLE_OPERATION_TIMEDOUT, $failure->curlErrno);
    }

    public function testATimeoutOnAReusedConnectionCountsAsConnected(): void
    {
        $failure = CurlErrors::classify(\CURLE_OPERATION_TIMEDOUT, '', ['connect_time_us' => 0, 'num_connects' => 0, 'total_time_us' => 1000000], null);

        self::assertStringContainsString('"timeout" option', $failure->what);
    }

    public function testATimeoutBeforeConnectingNamesTheConnectTimeoutOption(): void
    {
        $failure = CurlErrors::classify(\CURLE_OPERATION_TIMEDOUT, '', ['connect_time_us' => 0, 'num_connects' => 1], null);

        self::assertSame(FailureKind::Timeout, $failure->kind);
        self::assertSame('no connection within the "connect_timeout" option', $failure->what);
    }

    /** @return iterable<string, array{int}> */
    public static function tooLarge(): iterable
    {
        yield 'announced too large' => [\CURLE_FILESIZE_EXCEEDED];
        yield 'cut off while writing' => [\CURLE_WRITE_ERROR];
    }

    #[DataProvider('tooLarge')]
    public function testABodyPastTheCapNamesTheMaxResponseBytesOption(int $errno): void
    {
        $failure = CurlErrors::classify($errno, '', [], 1024);

        self::assertSame(FailureKind::TooLarge, $failure->kind);
        self::assertStringContainsString('larger than the 1024 bytes allowed by the "max_response_bytes" option', $failure->what);
    }

    public function testTooManyRedirectsIsARequestError(): void
    {
        $failure = CurlErrors::classify(\CURLE_TOO_MANY_REDIRECTS, '', [], null);

        self::assertSame(FailureKind::Request, $failure->kind);
        self::assertStringContainsString('"max_redirects" option', $failure->what);
    }

    public function testARedirectToAnotherSchemeIsARequestError(): void
    {
        $failure = CurlErrors::classify(\CURLE_UNSUPPORTED_PROTOCOL, '', ['redirect_count' => 1], null);

        self::assertSame(FailureKind::Request, $failure->kind);
        self::assertSame('a redirect pointed to a scheme other than http or https and was refused', $failure->what);
    }
}
