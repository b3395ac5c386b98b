<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

/**
 * The token TCP callers must present, from where no other local user can read it: a file only
 * the relay's user may read (--token-file) or the environment ($WARMHTTP_RELAY_TOKEN; a
 * process's environment is readable by its own user and root only). `--token=VALUE` still
 * works but is deprecated: every local user sees a process's argv in `ps`.
 *
 * @internal
 */
final readonly class RelayToken
{
    public const ENV = 'WARMHTTP_RELAY_TOKEN';

    /**
     * 32 characters: 128 bits as hex (`openssl rand -hex 16`), more as base64. A token is
     * guessed online, over the TCP listener: one connection tried 80,000 tokens a second, which
     * goes through every 8-letter lowercase token (2 x 10^11) in a month; 2^128 stays out of
     * reach whatever the rate limit.
     */
    public const MIN_LENGTH = 32;

    /** @param bool $onCommandLine given as --token=VALUE (deprecated: shown in `ps`) */
    private function __construct(public ?string $value, public bool $onCommandLine) {}

    /**
     * @param array<string, string> $environment
     *
     * @throws \InvalidArgumentException naming the option and what to do
     */
    public static function resolve(?string $option, ?string $file, array $environment): self
    {
        if ($option !== null && $file !== null) {
            throw new \InvalidArgumentException('Pass the token once: --token-file=PATH (or $' . self::ENV . '), not also --token.');
        }
        if ($file !== null) {
            return new self(self::checked(self::read($file), '--token-file=' . $file), false);
        }
        if ($option !== null) {
            return new self(self::checked($option, '--token'), true);
        }
        $variable = $environment[self::ENV] ?? '';

        return new self($variable === '' ? null : self::checked($variable, '$' . self::ENV), false);
    }

    /** The warning the relay logs for --token=VALUE. */
    public static function deprecation(): string
    {
        return 'The --token option is deprecated and will be removed: every user on this machine can read it in `ps` (the relay hides it from its process title once started, but not before). Put the token in a file only the relay\'s user can read (chmod 600) and pass --token-file=PATH, or set $' . self::ENV . '.';
    }

    private static function read(string $path): string
    {
        $stat = @stat($path);
        if ($stat === false || ($stat['mode'] & 0o170000) !== 0o100000) {
            throw new \InvalidArgumentException(\sprintf('--token-file=%s: no such regular file.', $path));
        }
        if (($stat['mode'] & 0o077) !== 0) {
            throw new \InvalidArgumentException(\sprintf(
                '--token-file=%s is readable or writable by other users (mode %04o): anyone who can read it can send through the relay. Run chmod 600 %s (owned by the relay\'s user) and start again.',
                $path,
                $stat['mode'] & 0o7777,
                $path,
            ));
        }
        $token = @file_get_contents($path);
        if ($token === false) {
            throw new \InvalidArgumentException(\sprintf('--token-file=%s cannot be read by user "%s": make the relay\'s user its owner (chmod 600).', $path, RelayLocation::user()));
        }

        // Files written by editors or `echo` end with a newline that is no part of the token.
        return rtrim($token, "\r\n");
    }

    private static function checked(string $token, string $source): string
    {
        if (preg_match('/^[\x21-\x7e]+$/D', $token) !== 1) {
            throw new \InvalidArgumentException(\sprintf('The token from %s must be printable ASCII without spaces (it travels as the X-WarmHttp-Token header), e.g. the output of openssl rand -hex 32.', $source));
        }
        if (\strlen($token) < self::MIN_LENGTH) {
            throw new \InvalidArgumentException(\sprintf(
                'The token from %s is %d characters long; the relay needs at least %d (128 bits as hex) so it cannot be guessed over the TCP listener. Generate one with: openssl rand -hex 32',
                $source,
                \strlen($token),
                self::MIN_LENGTH,
            ));
        }

        return $token;
    }
}
