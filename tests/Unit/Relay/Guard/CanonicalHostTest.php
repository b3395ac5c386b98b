<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Guard;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\RequiresPhpExtension;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Guard\CanonicalHost;
use WarmHttp\Relay\Guard\Ipv4Spelling;

/**
 * One spelling per host: what curl or the resolver would read as another name or address is
 * converted (IDNA) or refused with the form to write.
 */
final class CanonicalHostTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function canonical(): iterable
    {
        yield 'a name' => ['api.example.com', 'api.example.com'];
        yield 'upper case' => ['API.Example.COM', 'api.example.com'];
        yield 'digits and inner hyphens' => ['a-1.b--2.example', 'a-1.b--2.example'];
        yield 'a single label' => ['localhost', 'localhost'];
        yield 'a label of 63' => [str_repeat('a', 63) . '.example', str_repeat('a', 63) . '.example'];
        yield 'punycode as given' => ['xn--bcher-kva.example', 'xn--bcher-kva.example'];
        yield 'IPv4' => ['192.168.0.1', '192.168.0.1'];
        yield 'IPv4 zeros' => ['0.0.0.0', '0.0.0.0'];
        yield 'IPv6' => ['[2001:DB8::1]', '[2001:db8::1]'];
        yield 'IPv6, long form' => ['[0:0:0:0:0:0:0:1]', '[::1]'];
        yield 'IPv6, mapped' => ['[::FFFF:7F00:1]', '[::ffff:127.0.0.1]'];
    }

    #[DataProvider('canonical')]
    public function testACanonicalFormIsKeptOrLowered(string $host, string $expected): void
    {
        self::assertSame($expected, CanonicalHost::of($host));
    }

    /** @return iterable<string, array{string, string}> */
    public static function international(): iterable
    {
        yield 'enclosed letters' => ['ⓔⓥⓘⓛ.example', 'evil.example'];
        yield 'fullwidth letters' => ['ＥＶＩＬ.example', 'evil.example'];
        yield 'ideographic full stop' => ["evil\u{3002}example", 'evil.example'];
        yield 'umlaut' => ['Bücher.example', 'xn--bcher-kva.example'];
        yield 'sharp s, non-transitional as libidn2' => ['faß.example', 'xn--fa-hia.example'];
        yield 'circled digits, an IPv4 address' => ['①②⑦.0.0.1', '127.0.0.1'];
    }

    #[RequiresPhpExtension('intl')]
    #[DataProvider('international')]
    public function testAnInternationalNameBecomesTheAsciiNameCurlWouldConnectTo(string $host, string $ascii): void
    {
        self::assertSame($ascii, CanonicalHost::of($host));
    }

    /** @return iterable<string, array{string, string}> host, what the refusal must say */
    public static function refused(): iterable
    {
        yield 'empty' => ['', 'names no host'];
        yield 'percent-encoded' => ['%65vil.example', 'write it as "evil.example"'];
        yield 'percent-encoded dot' => ['evil%2eexample', 'write it as "evil.example"'];
        yield 'percent-encoded junk' => ['%00evil.example', 'is percent-encoded'];
        yield 'final dot' => ['evil.example.', 'write it as "evil.example"'];
        yield 'final dot on an address' => ['127.0.0.1.', 'write it as "127.0.0.1"'];
        yield 'only a dot' => ['.', 'not a host name'];
        yield 'empty label' => ['evil..example', 'not a host name'];
        yield 'leading dot' => ['.evil.example', 'not a host name'];
        yield 'underscore' => ['a_b.example', 'found "a_b"'];
        yield 'leading hyphen' => ['-a.example', 'found "-a"'];
        yield 'trailing hyphen' => ['a-.example', 'found "a-"'];
        yield 'label of 64' => [str_repeat('a', 64) . '.example', 'not a host name'];
        yield 'name of 254' => [str_repeat('a.', 126) . 'ab', 'longer than 253'];
        yield 'backslash' => ['evil.example\\', 'not a host name'];
        yield 'decimal' => ['2130706433', 'write it as 127.0.0.1'];
        yield 'octal' => ['0177.0.0.1', 'write it as 127.0.0.1'];
        yield 'hex' => ['0x7f.0.0.1', 'write it as 127.0.0.1'];
        yield 'hex, short' => ['0x7f.1', 'write it as 127.0.0.1'];
        yield 'short' => ['127.1', 'write it as 127.0.0.1'];
        yield 'padded' => ['010.0.0.1', 'write it as 8.0.0.1'];
        yield 'five parts' => ['1.2.3.4.5', 'not an IPv4 address in dotted-decimal form'];
        yield 'a byte over 255' => ['256.0.0.1', 'not an IPv4 address in dotted-decimal form'];
        yield 'a name ending in a number' => ['example.123', 'not an IPv4 address in dotted-decimal form'];
        yield 'a name ending in hex' => ['example.0x1', 'not an IPv4 address in dotted-decimal form'];
        yield 'IPv6 unclosed' => ['[::1', 'not a bracketed IPv6 address'];
        yield 'IPv6 zone id' => ['[fe80::1%25eth0]', 'zone id (%25eth0)'];
        yield 'IPv6 raw zone id' => ['[fe80::1%eth0]', 'zone id'];
        yield 'IPv6 invalid' => ['[::g]', 'not a valid IPv6 address'];
        yield 'IPvFuture' => ['[v1.x]', 'not a valid IPv6 address'];
        yield 'IPv4 in brackets' => ['[127.0.0.1]', 'not a valid IPv6 address'];
        yield 'control character' => ["evil\x01.example", 'not a valid internationalized domain name'];
    }

    #[DataProvider('refused')]
    public function testWhatCurlWouldReadAsAnotherHostIsRefusedNamingTheFormToWrite(string $host, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);

        CanonicalHost::of($host);
    }

    /** @return iterable<string, array{string, string|null}> */
    public static function ipv4Spellings(): iterable
    {
        yield 'dotted' => ['1.2.3.4', '1.2.3.4'];
        yield 'one number' => ['16909060', '1.2.3.4'];
        yield 'two parts' => ['1.131844', '1.2.3.4'];
        yield 'three parts' => ['1.2.772', '1.2.3.4'];
        yield 'hex without digits' => ['0x', '0.0.0.0'];
        yield 'max' => ['4294967295', '255.255.255.255'];
        yield 'over max' => ['4294967296', null];
        yield 'a part over 255' => ['1.256.3.4', null];
        yield 'three parts, last over 16 bits' => ['1.2.65536', null];
        yield 'bad octal' => ['08', null];
        yield 'a name' => ['example', null];
        yield 'very long' => [str_repeat('1', 30), null];
    }

    #[DataProvider('ipv4Spellings')]
    public function testTheInetAtonSpellingsAreRecognised(string $host, ?string $dotted): void
    {
        self::assertSame($dotted, Ipv4Spelling::parse($host));
    }
}
