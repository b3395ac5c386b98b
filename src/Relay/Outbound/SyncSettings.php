<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use WarmHttp\Internal\Options;

/**
 * The Client's transfer settings that a relay_sync request carries to the relay, so the relay's
 * upstream transfer is made as the Client's own would be: one header line,
 * "X-WarmHttp-Transfer: verify=0; cafile=%2Fetc%2Fca.pem; timeout=30; connect-timeout=10;
 * read-timeout=0; version=1.0". The relay strips it (HeaderFilter drops every X-WarmHttp-*).
 *
 * The Client writes the line once per Client (the version is the only per-request part); the
 * relay parses each distinct line once (Upstream keeps the curl options it makes from it).
 * Not carried: client certificates (the relay would need the app's private key) and proxies
 * (the relay never uses one): a Client refuses them with relay_sync (Options).
 *
 * @internal
 */
final class SyncSettings
{
    public const HEADER = 'X-WarmHttp-Transfer';

    /**
     * The relay's own timers run this much longer than the Client's: the Client's, on its hop
     * to the relay, fire first and throw exactly what a direct call throws; the relay's only
     * stop a transfer nobody waits for. connect-timeout is the relay's alone (the hop to a
     * local relay connects at once), so it is applied as given.
     */
    public const BACKSTOP_SECONDS = 1.0;

    private const VERSIONS = ['1.0', '1.1', '2'];

    /** The header line's value for a Client, without the request's version. */
    public static function of(Options $options): string
    {
        $parts = ['verify=' . ($options->bool('verify') ? '1' : '0')];
        $cafile = $options->string('cafile');
        if ($cafile !== null) {
            $parts[] = 'cafile=' . rawurlencode($cafile);
        }
        $parts[] = 'timeout=' . self::number($options->float('timeout'));
        $parts[] = 'connect-timeout=' . self::number($options->float('connect_timeout'));
        $parts[] = 'read-timeout=' . self::number($options->float('read_timeout'));

        return implode('; ', $parts);
    }

    /**
     * The version a request asks for, as the Client's own transfer would choose it: the
     * Client's `http_version` option, else the request's protocol version where it is not
     * PSR-7's default "1.1" (CurlOptions::forRequest).
     */
    public static function withVersion(string $settings, ?string $httpVersion, string $protocolVersion): string
    {
        $version = $httpVersion ?? match ($protocolVersion) {
            '1.0' => '1.0',
            '2', '2.0' => '2',
            default => null,
        };

        return $version === null ? $settings : $settings . '; version=' . $version;
    }

    /**
     * The relay's side: the Client options its upstream transfer is made with, and the version.
     *
     * @param float $relayTimeout the relay's --timeout: no sync transfer runs longer
     *
     * @return array{array<string, mixed>, ?string}
     *
     * @throws \InvalidArgumentException a line the relay cannot use (named in the message)
     */
    public static function parse(string $line, float $relayTimeout): array
    {
        $given = [];
        foreach (explode(';', $line) as $part) {
            [$name, $value] = array_map(trim(...), explode('=', $part, 2) + [1 => '']);
            $given[$name] = $value;
        }
        $unknown = array_diff(array_keys($given), ['verify', 'cafile', 'timeout', 'connect-timeout', 'read-timeout', 'version']);
        if ($unknown !== []) {
            throw new \InvalidArgumentException(\sprintf('%s: unknown setting "%s" (a newer Client than this relay? upgrade the relay).', self::HEADER, reset($unknown)));
        }
        $version = $given['version'] ?? null;
        if ($version !== null && !\in_array($version, self::VERSIONS, true)) {
            throw new \InvalidArgumentException(\sprintf('%s: version must be 1.0, 1.1 or 2, got "%s".', self::HEADER, $version));
        }
        $timeout = self::seconds($given, 'timeout');
        $read = self::seconds($given, 'read-timeout');
        $options = [
            'verify' => ($given['verify'] ?? '1') !== '0',
            'timeout' => $timeout === 0.0 ? $relayTimeout : min($relayTimeout, $timeout + self::BACKSTOP_SECONDS),
            'connect_timeout' => self::seconds($given, 'connect-timeout'),
            'read_timeout' => $read === 0.0 ? 0.0 : $read + self::BACKSTOP_SECONDS,
        ];
        if (isset($given['cafile'])) {
            $options['cafile'] = rawurldecode($given['cafile']);
        }

        return [$options, $version];
    }

    /** @param array<string, string> $given */
    private static function seconds(array $given, string $name): float
    {
        $value = $given[$name] ?? '0';
        if (!is_numeric($value) || (float) $value < 0) {
            throw new \InvalidArgumentException(\sprintf('%s: %s must be a number of seconds >= 0, got "%s".', self::HEADER, $name, $value));
        }

        return (float) $value;
    }

    private static function number(float $seconds): string
    {
        if ($seconds === floor($seconds) && $seconds < 1e15) {
            return (string) (int) $seconds; // whole seconds (most timeouts): no sprintf, ~1.5 k instructions each
        }

        return rtrim(rtrim(\sprintf('%.3F', $seconds), '0'), '.');
    }
}
