<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Internal\Options;

final class OptionsTest extends TestCase
{
    /** The defaults are added unchecked (Options::DEFAULTS): each must be what its check lets through. */
    public function testEveryOptionHasADefaultItsOwnCheckKeepsAsIs(): void
    {
        /** @var array<string, mixed> $defaults */
        $defaults = (new \ReflectionClassConstant(Options::class, 'DEFAULTS'))->getValue();

        $values = new \ReflectionProperty(Options::class, 'values');

        self::assertSame(Options::names(), array_keys($defaults));
        self::assertSame($defaults, $values->getValue(Options::fromArray([])));
        foreach ($defaults as $name => $default) {
            $given = Options::fromArray([$name => $default]);
            // decode_content's true is read as the codings it offers (acceptEncoding()), checked or not
            $name === 'decode_content'
                ? self::assertSame(Options::fromArray([])->acceptEncoding(), $given->acceptEncoding())
                : self::assertSame([$name => $default], array_intersect_key((array) $values->getValue($given), [$name => true]), $name);
        }
    }

    public function testFillsInTheDocumentedDefaults(): void
    {
        $options = Options::fromArray([]);

        self::assertTrue($options->bool('verify'));
        self::assertNull($options->string('cafile'));
        self::assertSame(30.0, $options->float('timeout'));
        self::assertSame(10.0, $options->float('connect_timeout'));
        self::assertNull($options->string('http_version'));
        self::assertNull($options->int('max_host_connections'));
        self::assertNull($options->int('max_total_connections'));
        self::assertFalse($options->bool('follow_redirects'));
        self::assertSame(5, $options->int('max_redirects'));
        self::assertNull($options->int('max_response_bytes'));
        self::assertSame(50, $options->int('max_idle_seconds'));
        self::assertFalse($options->bool('stream'));
        self::assertSame([], $options->headers());
        self::assertNull($options->relay());
        self::assertNull($options->string('relay_token'));
        self::assertFalse($options->bool('relay_sync'));
        self::assertFalse($options->bool('relay_allow_private_networks'));
        self::assertSame([], $options->list('relay_allowed_hosts'));
        self::assertNull($options->string('relay_fallback_dir'));
        self::assertNull($options->logger());
        self::assertSame(0.0, $options->float('read_timeout'));
        self::assertSame('gzip', $options->acceptEncoding());
        self::assertNull($options->credentialOf('cert'));
        self::assertNull($options->credentialOf('ssl_key'));
        self::assertNull($options->proxy());
        self::assertNull($options->optionalList('no_proxy'));
        self::assertSame([], $options->given());
    }

    public function testNamesEveryOption(): void
    {
        self::assertSame(
            ['verify', 'cafile', 'timeout', 'connect_timeout', 'read_timeout', 'http_version', 'max_host_connections', 'max_total_connections', 'follow_redirects',
                'max_redirects', 'max_response_bytes', 'max_idle_seconds', 'stream', 'decode_content', 'cert', 'ssl_key', 'proxy', 'no_proxy',
                'headers', 'relay', 'relay_token', 'relay_sync', 'relay_sync_guard',
                'relay_allow_private_networks', 'relay_allowed_hosts', 'relay_fallback_dir', 'logger',
                'tls_min', 'tls_max', 'capath', 'ip_resolve', 'cert_type', 'ssl_key_type', 'http_auth', 'progress', 'debug'],
            Options::names(),
        );
    }

    public function testKeepsValidValuesAndWhatWasGiven(): void
    {
        $logger = new NullLogger();
        $given = [
            'verify' => false, 'timeout' => 2, 'connect_timeout' => 0.5, 'http_version' => '2', 'max_redirects' => 1,
            'headers' => ['User-Agent' => 'me/1.0'], 'relay' => 'tcp://127.0.0.1:8787', 'relay_token' => 't', 'logger' => $logger,
        ];

        $options = Options::fromArray($given);

        self::assertFalse($options->bool('verify'));
        self::assertSame(2.0, $options->float('timeout'));
        self::assertSame(0.5, $options->float('connect_timeout'));
        self::assertSame('2', $options->string('http_version'));
        self::assertSame(1, $options->int('max_redirects'));
        self::assertSame(['User-Agent' => 'me/1.0'], $options->headers());
        self::assertSame(8787, $options->relay()?->port);
        self::assertSame('t', $options->string('relay_token'));
        self::assertSame($logger, $options->logger());
        self::assertSame($given, $options->given());
    }

    public function testAllowedHostsAreKeptLowercasedForTheGuard(): void
    {
        self::assertSame(['hooks.internal', '*.example.com'], Options::fromArray(['relay_allowed_hosts' => ['Hooks.Internal', '*.example.com']])->list('relay_allowed_hosts'));
    }

    public function testZeroSecondsMeansNoLimitAndIsAccepted(): void
    {
        self::assertSame(0.0, Options::fromArray(['timeout' => 0])->float('timeout'));
    }

    public function testNullIsAcceptedForAnOptionalOption(): void
    {
        self::assertNull(Options::fromArray(['max_response_bytes' => null, 'relay' => null])->int('max_response_bytes'));
    }

    public function testARealFileIsAcceptedAsCafile(): void
    {
        self::assertSame(__FILE__, Options::fromArray(['cafile' => __FILE__])->string('cafile'));
    }

    public function testAFileOnlyItsOwnerMayReadIsCheckedByAccessAndAccepted(): void
    {
        $file = (string) tempnam(sys_get_temp_dir(), 'warmhttp-ca');
        try {
            // 0600, not world-readable: is_readable() decides; 0644: the stat() bits do
            foreach ([0600, 0644] as $mode) {
                chmod($file, $mode);
                clearstatcache();
                self::assertSame($file, Options::fromArray(['cafile' => $file])->string('cafile'), \sprintf('mode %o', $mode));
            }
        } finally {
            @unlink($file);
        }
    }

    public function testAFileNoneMayReadIsRefusedUnlessThisUserReadsAnyFile(): void
    {
        $file = (string) tempnam(sys_get_temp_dir(), 'warmhttp-ca');
        try {
            chmod($file, 0000);
            clearstatcache();
            if (is_readable($file)) {
                // root: access() grants reading any file, and so does the check
                self::assertSame($file, Options::fromArray(['cafile' => $file])->string('cafile'));

                return;
            }
            $this->expectException(InvalidOptionException::class);
            $this->expectExceptionMessage('does not exist or is not readable');
            Options::fromArray(['cafile' => $file]);
        } finally {
            @unlink($file);
        }
    }

    public function testDecodeContentOffersTheCodingsGivenOrNone(): void
    {
        self::assertSame('gzip, zstd', Options::fromArray(['decode_content' => 'GZIP ,zstd'])->acceptEncoding());
        self::assertSame('identity', Options::fromArray(['decode_content' => 'identity'])->acceptEncoding());
        self::assertNull(Options::fromArray(['decode_content' => false])->acceptEncoding());
    }

    public function testDecodeContentAsGivenKeepsTrueForTheRouteToResolve(): void
    {
        self::assertTrue(Options::fromArray([])->decodeContent());
        self::assertSame('gzip, zstd', Options::fromArray(['decode_content' => 'GZIP ,zstd'])->decodeContent());
        self::assertFalse(Options::fromArray(['decode_content' => false])->decodeContent());
    }

    public function testACertificateIsAPathOrAPathAndItsPassphrase(): void
    {
        self::assertSame([__FILE__, null], Options::fromArray(['cert' => __FILE__])->credentialOf('cert'));
        self::assertSame([__FILE__, 'secret'], Options::fromArray(['ssl_key' => [__FILE__, 'secret']])->credentialOf('ssl_key'));
    }

    public function testAProxyIsAUrlFalseOrTheEnvironment(): void
    {
        self::assertSame('socks5h://u:p@127.0.0.1:1080', Options::fromArray(['proxy' => 'socks5h://u:p@127.0.0.1:1080'])->proxy());
        self::assertFalse(Options::fromArray(['proxy' => false])->proxy());
        self::assertNull(Options::fromArray(['proxy' => null])->proxy());
        self::assertSame(['localhost', '.internal', '10.0.0.0/8'], Options::fromArray(['no_proxy' => ['localhost', '.internal', '10.0.0.0/8']])->optionalList('no_proxy'));
    }

    public function testAnUnknownOptionIsNamedWithTheNearestKnownOne(): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Unknown WarmHttp option "timout". Did you mean "timeout"? Known options: verify, cafile, timeout,');

        Options::fromArray(['timout' => 5]);
    }

    public function testAnUnknownOptionFarFromAnyKnownOneGetsNoGuess(): void
    {
        try {
            Options::fromArray(['base_uri' => 'http://p']);
            self::fail('Expected an InvalidOptionException');
        } catch (InvalidOptionException $e) {
            self::assertStringStartsWith('Unknown WarmHttp option "base_uri". Known options:', $e->getMessage());
        }
    }

    public function testTheClientOptionsOfIssue14KeepTheirValues(): void
    {
        $progress = static function (): void {};
        $options = Options::fromArray([
            'tls_min' => '1.2', 'tls_max' => '1.3', 'capath' => __DIR__, 'ip_resolve' => 'v6', 'cert_type' => 'P12', 'ssl_key_type' => 'DER',
            'http_auth' => ['ntlm', 'me', ''], 'progress' => $progress, 'debug' => \STDERR, 'http_version' => '2-upgrade',
        ]);

        self::assertSame(['1.2', '1.3', __DIR__, 'v6', 'P12', 'DER', '2-upgrade'], array_map($options->string(...), ['tls_min', 'tls_max', 'capath', 'ip_resolve', 'cert_type', 'ssl_key_type', 'http_version']));
        self::assertSame(['ntlm', 'me', ''], $options->httpAuth());
        self::assertSame($progress, $options->progress());
        self::assertSame(\STDERR, $options->debugStream());
        self::assertNull(Options::fromArray([])->debugStream());
    }

    public function testAFloorAboveTheCeilingIsRefused(): void
    {
        $this->expectExceptionMessage('Option "tls_min" ("1.3") is above "tls_max" ("1.2"): no TLS version is left to negotiate.');
        Options::fromArray(['tls_min' => '1.3', 'tls_max' => '1.2']);
    }

    public function testADebugStreamOpenedForReadingOnlyIsRefused(): void
    {
        $read = fopen(__FILE__, 'r');
        self::assertIsResource($read);
        $this->expectExceptionMessage('Option "debug" must be a writable stream; this one was opened with mode "r".');
        Options::fromArray(['debug' => $read]);
    }

    /** @return iterable<string, array{string, mixed, string}> */
    public static function wrongValues(): iterable
    {
        yield 'verify null' => ['verify', null, 'Option "verify" must be a bool, got null'];
        yield 'verify as a string' => ['verify', 'yes', 'Option "verify" must be a bool, got string \'yes\''];
        yield 'follow_redirects as an int' => ['follow_redirects', 1, 'Option "follow_redirects" must be a bool, got int 1'];
        yield 'stream' => ['stream', 'true', 'Option "stream" must be a bool'];
        yield 'relay_sync' => ['relay_sync', 0, 'Option "relay_sync" must be a bool'];
        yield 'negative timeout' => ['timeout', -1, 'Option "timeout" must be a number of seconds >= 0 (0 means no limit), got int -1'];
        yield 'timeout as a string' => ['timeout', '5', 'Option "timeout" must be a number of seconds >= 0'];
        yield 'connect_timeout null' => ['connect_timeout', null, 'Option "connect_timeout" must be a number of seconds >= 0'];
        yield 'http_version 3' => ['http_version', '3', 'Option "http_version" must be "1.1", "2" or "2-upgrade", got string \'3\''];
        yield 'http_version as an int' => ['http_version', 2, 'Option "http_version" must be "1.1", "2" or "2-upgrade", got int 2'];
        yield 'max_redirects zero' => ['max_redirects', 0, 'Option "max_redirects" must be a positive int, got int 0'];
        yield 'max_redirects null' => ['max_redirects', null, 'Option "max_redirects" must be a positive int, got null'];
        yield 'max_host_connections negative' => ['max_host_connections', -4, 'Option "max_host_connections" must be a positive int'];
        yield 'max_total_connections as a float' => ['max_total_connections', 1.5, 'Option "max_total_connections" must be a positive int, got float 1.5'];
        yield 'max_response_bytes as a string' => ['max_response_bytes', '1024', 'Option "max_response_bytes" must be a positive int'];
        yield 'max_idle_seconds zero' => ['max_idle_seconds', 0, 'Option "max_idle_seconds" must be a positive int'];
        yield 'headers as a string' => ['headers', 'X-A: 1', 'Option "headers" must be an array of header name => string value'];
        yield 'headers as a list' => ['headers', ['X-A: 1'], 'Option "headers" must be an array of header name => string value, got array array'];
        yield 'a header value as an int' => ['headers', ['X-A' => 1], 'Option "headers" must be an array of header name => string value'];
        yield 'relay as an int' => ['relay', 8787, 'Option "relay" must be a relay address such as unix:///run/warmhttp/relay.sock, got int 8787'];
        yield 'relay not an address' => ['relay', 'tcp://10.0.0.1:8787', 'Option "relay": "tcp://10.0.0.1:8787" is not a relay address'];
        yield 'empty relay_token' => ['relay_token', '', 'Option "relay_token" must be a non-empty string, got string \'\''];
        yield 'logger not a PSR-3 logger' => ['logger', new \stdClass(), 'Option "logger" must be a PSR-3 Psr\Log\LoggerInterface, got stdClass stdClass'];
        yield 'relay_allow_private_networks as a string' => ['relay_allow_private_networks', 'yes', 'Option "relay_allow_private_networks" must be a bool'];
        yield 'relay_allowed_hosts as a string' => ['relay_allowed_hosts', 'a.example', 'Option "relay_allowed_hosts" must be a list of host names'];
        yield 'relay_allowed_hosts with a space' => ['relay_allowed_hosts', ['a .example'], 'Option "relay_allowed_hosts" must be a list of host names such as ["hooks.internal", "*.example.com"]; "a .example" is not a host name.'];
        yield 'relay_allowed_hosts keyed' => ['relay_allowed_hosts', ['a' => 'a.example'], 'Option "relay_allowed_hosts" must be a list of host names'];
        yield 'relay_fallback_dir relative' => ['relay_fallback_dir', 'var/fallback', 'Option "relay_fallback_dir" must be an absolute directory path, got string \'var/fallback\''];
        yield 'cafile as an array' => ['cafile', [], 'Option "cafile" must be a path to a readable file, got array array'];
        yield 'cafile missing' => ['cafile', '/nonexistent/ca.pem', 'Option "cafile": the file "/nonexistent/ca.pem" does not exist or is not readable.'];
        yield 'read_timeout negative' => ['read_timeout', -1, 'Option "read_timeout" must be a number of seconds >= 0'];
        yield 'decode_content as an int' => ['decode_content', 1, 'Option "decode_content" must be a bool, or the codings to offer such as "gzip, br", got int 1'];
        yield 'decode_content unknown coding' => ['decode_content', 'gzip, lzma', 'cannot decode "lzma"; it decodes gzip, deflate'];
        yield 'cert missing' => ['cert', '/nonexistent/client.pem', 'Option "cert": the file "/nonexistent/client.pem" does not exist or is not readable.'];
        yield 'ssl_key missing' => ['ssl_key', ['/nonexistent/client.key', 'pw'], 'Option "ssl_key": the file "/nonexistent/client.key" does not exist or is not readable.'];
        yield 'ssl_key passphrase not a string' => ['ssl_key', [__FILE__, 1], 'Option "ssl_key" must be a file path, or [file path, passphrase], got array array'];
        yield 'cert as true' => ['cert', true, 'Option "cert" must be a file path, or [file path, passphrase], got bool true'];
        yield 'proxy true' => ['proxy', true, 'Option "proxy" must be a proxy URL such as'];
        yield 'proxy without scheme' => ['proxy', 'proxy.internal:3128', '"proxy.internal:3128" is not one (the scheme must be one of http, https, socks4, socks4a, socks5, socks5h)'];
        yield 'proxy password not shown' => ['proxy', 'ftp://me:secret@proxy:21', '"ftp://me:***@proxy:21" is not one'];
        yield 'no_proxy as a string' => ['no_proxy', 'localhost,.internal', 'Option "no_proxy" must be a list of hosts such as ["localhost", ".internal", "10.0.0.0/8"], got string'];
        yield 'no_proxy with a comma' => ['no_proxy', ['a,b'], 'Option "no_proxy" must be a list of hosts such as ["localhost", ".internal", "10.0.0.0/8"]; "a,b" is not a host.'];
        yield 'tls_min 1.4' => ['tls_min', '1.4', 'Option "tls_min" must be "1.0", "1.1", "1.2" or "1.3", got string \'1.4\''];
        yield 'tls_max as a float' => ['tls_max', 1.2, 'Option "tls_max" must be "1.0", "1.1", "1.2" or "1.3", got float 1.2'];
        yield 'capath relative' => ['capath', 'certs', 'Option "capath" must be the absolute path of a directory of CA certificates'];
        yield 'capath missing' => ['capath', '/nonexistent/certs', 'Option "capath": the directory "/nonexistent/certs" does not exist or is not readable.'];
        yield 'capath a file' => ['capath', __FILE__, 'Option "capath": the directory "' . __FILE__ . '" does not exist'];
        yield 'ip_resolve v5' => ['ip_resolve', 'v5', 'Option "ip_resolve" must be "v4" or "v6", got string \'v5\''];
        yield 'cert_type lower case' => ['cert_type', 'der', 'Option "cert_type" must be "PEM", "DER" or "P12", got string \'der\''];
        yield 'ssl_key_type P12' => ['ssl_key_type', 'P12', 'Option "ssl_key_type" must be "PEM" or "DER", got string \'P12\''];
        yield 'http_auth basic' => ['http_auth', ['basic', 'u', 'p'], 'Option "http_auth" must be ["digest" or "ntlm", user name, password], got array array'];
        yield 'http_auth without a password' => ['http_auth', ['digest', 'u'], 'Option "http_auth" must be ["digest" or "ntlm", user name, password]'];
        yield 'http_auth as a string' => ['http_auth', 'u:p', 'Option "http_auth" must be ["digest" or "ntlm", user name, password], got string'];
        yield 'progress not callable' => ['progress', 'no_such_function', 'Option "progress" must be a callable, got string \'no_such_function\''];
        yield 'debug true' => ['debug', true, 'Option "debug" must be an open stream resource to write curl\'s log to'];
        yield 'debug a path' => ['debug', '/tmp/curl.log', 'Option "debug" must be an open stream resource'];
        yield 'cafile a directory' => ['cafile', __DIR__, 'Option "cafile": the file "' . __DIR__ . '" does not exist or is not readable.'];
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function notThroughTheRelay(): iterable
    {
        yield 'proxy' => [['proxy' => 'http://proxy.internal:3128'], 'Options "relay_sync" and "proxy" cannot be used together: the relay makes the request, and it never connects through a proxy.'];
        yield 'cert' => [['cert' => __FILE__], 'Options "relay_sync" and "cert" cannot be used together: the relay makes the request, and it would need the app\'s client certificate and private key.'];
        yield 'ssl_key' => [['ssl_key' => [__FILE__, 'secret']], 'Options "relay_sync" and "ssl_key" cannot be used together'];
        yield 'cert_type' => [['cert_type' => 'DER'], 'Options "relay_sync" and "cert_type" cannot be used together'];
        yield 'ssl_key_type' => [['ssl_key_type' => 'DER'], 'Options "relay_sync" and "ssl_key_type" cannot be used together'];
        yield 'capath' => [['capath' => __DIR__], 'Options "relay_sync" and "capath" cannot be used together: the relay makes the request, and the CA directory is a path on the app\'s host'];
        yield 'tls_min' => [['tls_min' => '1.3'], 'Options "relay_sync" and "tls_min" cannot be used together: the relay makes the request, and the relay negotiates TLS with its own defaults.'];
        yield 'tls_max' => [['tls_max' => '1.2'], 'Options "relay_sync" and "tls_max" cannot be used together'];
        yield 'ip_resolve' => [['ip_resolve' => 'v4'], 'Options "relay_sync" and "ip_resolve" cannot be used together: the relay makes the request, and the relay resolves host names itself.'];
        yield 'http_auth' => [['http_auth' => ['digest', 'u', 'p']], 'Options "relay_sync" and "http_auth" cannot be used together'];
        yield 'progress' => [['progress' => static function (): void {}], 'Options "relay_sync" and "progress" cannot be used together: the relay makes the request, and the transfer runs in the relay\'s process'];
        yield 'debug' => [['debug' => \STDERR], 'Options "relay_sync" and "debug" cannot be used together'];
        yield 'http_version 2-upgrade' => [['http_version' => '2-upgrade'], 'Options "relay_sync" and "http_version" "2-upgrade" cannot be used together'];
    }

    /** @param array<string, mixed> $options */
    #[DataProvider('notThroughTheRelay')]
    public function testRelaySyncRefusesWhatTheRelayCannotCarry(array $options, string $message): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage($message);

        Options::fromArray($options + ['relay' => 'unix:///run/warmhttp/relay.sock', 'relay_sync' => true]);
    }

    public function testRelaySyncTakesNoProxyAndTheseOptionsWithoutIt(): void
    {
        self::assertFalse(Options::fromArray(['relay' => 'unix:///run/warmhttp/relay.sock', 'relay_sync' => true, 'proxy' => false])->proxy());
        self::assertSame(__FILE__, Options::fromArray(['relay_sync' => false, 'cert' => __FILE__])->credentialOf('cert')[0] ?? null);
        self::assertTrue(Options::fromArray(['relay_sync_guard' => true])->bool('relay_sync_guard'));
    }

    #[DataProvider('wrongValues')]
    public function testAWrongValueIsRefusedNamingTheOptionWhatWasExpectedAndWhatCame(string $name, mixed $value, string $message): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage($message);

        Options::fromArray([$name => $value]);
    }
}
