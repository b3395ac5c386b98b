<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Storage\Redis\RedisConnection;
use WarmHttp\Relay\Storage\Redis\RedisSpoolReader;
use WarmHttp\Relay\Storage\SpoolInspector;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;

/**
 * Where the relay's socket and spool are, worked out one way for `relay` and the relay:*
 * commands: the option, else the environment variable, else the built-in default
 * (RelayConfig::DEFAULT_SOCKET, DEFAULT_SPOOL). Relative paths are made absolute, so a command
 * run from another directory names the same files.
 *
 * The running relay also writes its socket path beside its spool (`<spool>.socket`, "none"
 * when it listens on TCP only): given only a spool, relay:status asks the relay that uses it,
 * wherever that one listens.
 *
 * @internal
 */
final readonly class RelayLocation
{
    public const SOCKET_ENV = 'WARMHTTP_RELAY_SOCKET';
    public const SPOOL_ENV = 'WARMHTTP_RELAY_SPOOL';

    /** @param string|null $socket null: the relay listens on TCP only (--socket=none) */
    private function __construct(public ?string $socket, public string $spool) {}

    /**
     * @param string|null                $socketOption --socket as given, null when not given
     * @param string|null                $spoolOption  --spool as given, null when not given
     * @param array<string, string>|null $environment  null: this process's environment
     */
    public static function resolve(?string $socketOption, ?string $spoolOption, ?array $environment = null): self
    {
        $environment ??= getenv();
        $socket = self::given($socketOption) ?? self::given($environment[self::SOCKET_ENV] ?? null) ?? RelayConfig::DEFAULT_SOCKET;
        $spool = self::given($spoolOption) ?? self::given($environment[self::SPOOL_ENV] ?? null) ?? RelayConfig::DEFAULT_SPOOL;

        return new self($socket === 'none' ? null : self::absolute($socket), self::absolute($spool));
    }

    /**
     * For the relay:* commands, which may be given only a spool: the socket the relay using
     * that spool wrote beside it wins over the environment and the default.
     *
     * @param array<string, string>|null $environment
     */
    public static function ofRunningRelay(?string $socketOption, ?string $spoolOption, ?array $environment = null): self
    {
        $location = self::resolve($socketOption, $spoolOption, $environment);
        $recorded = self::given($socketOption) === null ? self::recordedSocket($location->spool) : null;

        return $recorded === null ? $location : new self($recorded === 'none' ? null : $recorded, $location->spool);
    }

    public static function socketHelp(string $what): string
    {
        return \sprintf('%s (default: $%s, else %s)', $what, self::SOCKET_ENV, RelayConfig::DEFAULT_SOCKET);
    }

    public static function spoolHelp(string $what): string
    {
        return \sprintf('%s (default: $%s, else %s)', $what, self::SPOOL_ENV, RelayConfig::DEFAULT_SPOOL);
    }

    /** Called by the relay once it listens: where relay:status finds it from the spool alone. */
    public function announce(): void
    {
        $temporary = self::recordFor($this->spool) . '.tmp';
        if (@file_put_contents($temporary, ($this->socket ?? 'none') . "\n") !== false) {
            @rename($temporary, self::recordFor($this->spool));
        }
    }

    /** Called by the relay once it stopped; a relay killed with SIGKILL leaves it (then nothing answers on it). */
    public function withdraw(): void
    {
        if (self::recordedSocket($this->spool) === ($this->socket ?? 'none')) {
            @unlink(self::recordFor($this->spool));
        }
    }

    /**
     * @template T
     *
     * @param \Closure(SpoolInspector): T $read
     *
     * @return T
     *
     * @throws \RuntimeException with a message naming the spool and what to do
     */
    public function readSpool(\Closure $read): mixed
    {
        if (RedisAddress::isRedis($this->spool)) {
            return $this->readRedis($read);
        }
        if (!is_file($this->spool)) {
            throw new \RuntimeException(\sprintf('No spool at %s: is the relay running with another --spool? Pass the relay\'s --spool=PATH (or set $%s) to this command too.', $this->spool, self::SPOOL_ENV));
        }
        if (!is_readable($this->spool)) {
            throw new \RuntimeException(\sprintf('Cannot read the spool at %s as user "%s": run this command as the relay\'s user (e.g. sudo -u warmhttp), or pass --spool=PATH.', $this->spool, self::user()));
        }
        try {
            return $read(SpoolReader::open($this->spool));
        } catch (\PDOException $e) {
            throw new \RuntimeException(\sprintf('Cannot use the spool at %s (%s): is it the relay\'s spool, and may user "%s" write beside it (SQLite\'s -wal and -shm files)?', $this->spool, $e->getMessage(), self::user()), 0, $e);
        }
    }

    /**
     * @template T
     *
     * @param \Closure(SpoolInspector): T $read
     *
     * @return T
     */
    private function readRedis(\Closure $read): mixed
    {
        try {
            $address = RedisAddress::parse($this->spool);
            if (!RedisConnection::available()) {
                throw new \RuntimeException('A redis:// spool needs the PHP extension redis (phpredis; Debian: apt install php8.2-redis).');
            }

            return $read(RedisSpoolReader::open($address));
        } catch (\InvalidArgumentException|SpoolUnavailable $e) {
            throw new \RuntimeException(\sprintf('Cannot use the spool at %s: %s', RedisAddress::redact($this->spool), $e->getMessage()), 0, $e);
        }
    }

    public static function user(): string
    {
        $user = \function_exists('posix_geteuid') ? posix_getpwuid(posix_geteuid()) : false;

        return \is_array($user) ? $user['name'] : (get_current_user() ?: '?');
    }

    private static function recordFor(string $spool): string
    {
        return $spool . '.socket';
    }

    private static function recordedSocket(string $spool): ?string
    {
        if (RedisAddress::isRedis($spool)) {
            return null; // a fleet's relays each have their own socket
        }
        $recorded = trim((string) @file_get_contents(self::recordFor($spool)));

        return $recorded === '' ? null : $recorded;
    }

    private static function given(?string $value): ?string
    {
        return $value === null || $value === '' ? null : $value;
    }

    private static function absolute(string $path): string
    {
        if ($path[0] === '/' || RedisAddress::isRedis($path)) {
            return $path;
        }
        $cwd = getcwd();

        return $cwd === false ? $path : rtrim($cwd, '/') . '/' . $path;
    }
}
