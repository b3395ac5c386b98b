<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function array_intersect_key;
use function array_is_list;
use function array_keys;
use function array_map;
use function fileperms;
use function get_debug_type;
use function get_resource_type;
use function implode;
use function is_dir;
use function is_file;
use function is_readable;
use function levenshtein;
use function ltrim;
use function preg_match;

use Psr\Log\LoggerInterface;

use function rtrim;
use function str_starts_with;
use function stream_get_meta_data;
use function strpbrk;
use function strtolower;
use function var_export;

use WarmHttp\Exception\InvalidOptionException;
use WarmHttp\Relay\App\RelayAddress;

/**
 * The validated options of one Client. The list, with types and defaults, is documented in
 * the README ("Options"); an unknown name or a wrong type is refused here, never ignored.
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 *
 * @phpstan-type RelaySyncValues array{relay: ?RelayAddress, relay_sync: bool, relay_fallback_dir: ?string, logger: ?LoggerInterface, max_host_connections: ?int, max_total_connections: ?int, relay_token: ?string, relay_sync_guard: bool, verify: bool, cafile: ?string, timeout: float, connect_timeout: float, read_timeout: float, http_version: ?string, decode_content: string|bool, stream: bool, max_response_bytes: ?int, follow_redirects: bool, max_redirects: int}
 */
final class Options
{
    /** @var array<string, string> name => type (check()); each has its default in DEFAULTS */
    private const SCHEMA = [
        'verify' => 'bool',
        'cafile' => '?file',
        'timeout' => 'seconds',
        'connect_timeout' => 'seconds',
        'read_timeout' => 'seconds',
        'http_version' => '?version',
        'max_host_connections' => '?count',
        'max_total_connections' => '?count',
        'follow_redirects' => 'bool',
        'max_redirects' => 'count',
        'max_response_bytes' => '?count',
        'max_idle_seconds' => 'count',
        'stream' => 'bool',
        'decode_content' => 'decoding',
        'cert' => '?credential',
        'ssl_key' => '?credential',
        'proxy' => '?proxy',
        'no_proxy' => '?noproxy',
        'headers' => 'headers',
        'relay' => '?relay',
        'relay_token' => '?string',
        'relay_sync' => 'bool',
        'relay_sync_guard' => 'bool',
        'relay_allow_private_networks' => 'bool',
        'relay_allowed_hosts' => 'hosts',
        'relay_fallback_dir' => '?dir',
        'logger' => '?logger',
        'tls_min' => '?tls',
        'tls_max' => '?tls',
        'capath' => '?cadir',
        'ip_resolve' => '?ipfamily',
        'cert_type' => '?certtype',
        'ssl_key_type' => '?keytype',
        'http_auth' => '?httpauth',
        'progress' => '?callable',
        'debug' => '?stream',
    ];

    /**
     * name => default, the value of every option not given: added to the given ones as they are
     * (one array union, not a loop over the schema per Client).
     *
     * @var array<string, mixed>
     */
    private const DEFAULTS = [
        'verify' => true,
        'cafile' => null,
        'timeout' => 30.0,
        'connect_timeout' => 10.0,
        'read_timeout' => 0.0,
        'http_version' => null,
        'max_host_connections' => null,
        'max_total_connections' => null,
        'follow_redirects' => false,
        'max_redirects' => 5,
        'max_response_bytes' => null,
        'max_idle_seconds' => 50,
        'stream' => false,
        'decode_content' => true,
        'cert' => null,
        'ssl_key' => null,
        'proxy' => null,
        'no_proxy' => null,
        'headers' => [],
        'relay' => null,
        'relay_token' => null,
        'relay_sync' => false,
        'relay_sync_guard' => false,
        'relay_allow_private_networks' => false,
        'relay_allowed_hosts' => [],
        'relay_fallback_dir' => null,
        'logger' => null,
        'tls_min' => null,
        'tls_max' => null,
        'capath' => null,
        'ip_resolve' => null,
        'cert_type' => null,
        'ssl_key_type' => null,
        'http_auth' => null,
        'progress' => null,
        'debug' => null,
    ];

    /**
     * Options the relay cannot carry to its upstream transfer (relay_sync), and why: it makes
     * the request in its own process, with only what X-WarmHttp-Transfer says.
     */
    private const NOT_RELAYED = [
        'cert' => 'it would need the app\'s client certificate and private key',
        'ssl_key' => 'it would need the app\'s client certificate and private key',
        'cert_type' => 'it would need the app\'s client certificate and private key',
        'ssl_key_type' => 'it would need the app\'s client certificate and private key',
        'proxy' => 'it never connects through a proxy',
        'capath' => 'the CA directory is a path on the app\'s host, and the relay takes only "cafile" and "verify"',
        'tls_min' => 'the relay negotiates TLS with its own defaults',
        'tls_max' => 'the relay negotiates TLS with its own defaults',
        'ip_resolve' => 'the relay resolves host names itself',
        'http_auth' => 'the relay would need the credentials and does not answer authentication challenges',
        'progress' => 'the transfer runs in the relay\'s process, where no callback of the app can be called',
        'debug' => 'curl\'s log of the transfer is written in the relay\'s process',
    ];

    /** The options checkRelaySync() looks at: a relay_sync Client given none of them skips it. */
    private const CHECKED_WITH_RELAY_SYNC = self::NOT_RELAYED + ['http_version' => ''];

    /**
     * @param array<string, mixed> $values
     * @param array<string, mixed> $given
     */
    private function __construct(private array $values, private readonly array $given) {}

    /** @return array<string, mixed> the options as the user gave them */
    public function given(): array
    {
        return $this->given;
    }

    /** @param array<mixed> $given */
    public static function fromArray(array $given): self
    {
        // The defaults' constant array, copied once and overwritten by what was given: a copy
        // of 36 entries costs less than merging them into the given ones one by one (~2.5 k
        // instructions per Client, callgrind). Only the options given need a check: the
        // defaults are valid (OptionsTest), and a range needs both ends (TlsVersions, one file
        // less per PHP-FPM request without them).
        $values = self::DEFAULTS;
        /** @var array<string, mixed> $given */
        foreach ($given as $name => $value) {
            if (!isset(self::SCHEMA[$name])) {
                throw self::unknown((string) $name);
            }
            $values[$name] = self::check($name, self::SCHEMA[$name], $value);
        }
        // Their defaults pass (null): only a given one can be refused.
        if ($values['relay_sync'] === true && array_intersect_key($given, self::CHECKED_WITH_RELAY_SYNC) !== []) {
            self::checkRelaySync($values);
        }
        if ($values['tls_min'] !== null && $values['tls_max'] !== null) {
            TlsVersions::checkRange($values['tls_min'], $values['tls_max']);
        }

        return new self($values, $given);
    }

    /**
     * What relay_sync cannot carry to the relay (NOT_RELAYED), refused by name.
     *
     * @param array<string, mixed> $values
     */
    private static function checkRelaySync(array $values): void
    {
        if ($values['http_version'] === '2-upgrade') {
            throw new InvalidOptionException('Options "relay_sync" and "http_version" "2-upgrade" cannot be used together: the relay makes the request and asks for HTTP/1.1 or prior-knowledge HTTP/2 only. Use "1.1" or "2".');
        }
        foreach (self::NOT_RELAYED as $name => $why) {
            if ($values[$name] !== null && $values[$name] !== false) {
                throw new InvalidOptionException(\sprintf(
                    'Options "relay_sync" and "%s" cannot be used together: the relay makes the request, and %s. Use a Client without relay_sync for these requests.',
                    $name,
                    $why,
                ));
            }
        }
    }

    /**
     * The checked values themselves, for the relay_sync Client's construction (Client,
     * SyncRoute::of()): read in one call, not copied. Seventeen calls of the accessors below
     * cost ~9 k instructions of a PHP-FPM request's first call, each call site cold (callgrind,
     * issue 16). Typed by the names read there; every other option is in the array too.
     *
     * @return RelaySyncValues
     */
    public function relaySync(): array
    {
        /** @var RelaySyncValues */
        return $this->values;
    }

    /** @return list<string> */
    public static function names(): array
    {
        return array_keys(self::SCHEMA);
    }

    public function bool(string $name): bool
    {
        return (bool) $this->values[$name];
    }

    public function float(string $name): float
    {
        $value = $this->values[$name];

        return \is_int($value) || \is_float($value) ? (float) $value : 0.0;
    }

    public function int(string $name): ?int
    {
        $value = $this->values[$name];

        return \is_int($value) ? $value : null;
    }

    public function string(string $name): ?string
    {
        $value = $this->values[$name];

        return \is_string($value) ? $value : null;
    }

    /** @return list<string> */
    public function list(string $name): array
    {
        /** @var list<string> */
        return $this->values[$name];
    }

    /** @return list<string>|null null when the option is not set */
    public function optionalList(string $name): ?array
    {
        /** @var list<string>|null */
        return $this->values[$name];
    }

    /**
     * `cert` or `ssl_key`: the file and its passphrase, if any.
     *
     * @return array{string, ?string}|null
     */
    public function credentialOf(string $name): ?array
    {
        /** @var array{string, ?string}|null */
        return $this->values[$name];
    }

    /**
     * `http_auth`: the scheme and the credentials.
     *
     * @return array{'digest'|'ntlm', string, string}|null
     */
    public function httpAuth(): ?array
    {
        /** @var array{'digest'|'ntlm', string, string}|null */
        return $this->values['http_auth'];
    }

    /** @return callable(int, int, int, int): mixed|null the `progress` option */
    public function progress(): ?callable
    {
        /** @var (callable(int, int, int, int): mixed)|null */
        return $this->values['progress'];
    }

    /** @return resource|null the `debug` option's stream */
    public function debugStream(): mixed
    {
        $value = $this->values['debug'];

        return \is_resource($value) ? $value : null;
    }

    /** The `proxy` option: a URL, false for none, null for the environment's. */
    public function proxy(): string|false|null
    {
        /** @var string|false|null */
        return $this->values['proxy'];
    }

    /** The `decode_content` option as the Accept-Encoding value it sends; null: no decoding. */
    public function acceptEncoding(): ?string
    {
        $value = $this->values['decode_content'];
        if ($value === true) {
            $value = ContentCodings::check('decode_content', true);
        }

        return \is_string($value) ? $value : null;
    }

    /**
     * The `decode_content` option as given, before `true` is resolved against libcurl's build:
     * true, false or the checked list of codings.
     */
    public function decodeContent(): string|bool
    {
        /** @var string|bool */
        return $this->values['decode_content'];
    }

    public function relay(): ?RelayAddress
    {
        $value = $this->values['relay'];

        return $value instanceof RelayAddress ? $value : null;
    }

    public function logger(): ?LoggerInterface
    {
        $value = $this->values['logger'];

        return $value instanceof LoggerInterface ? $value : null;
    }

    /** @return array<string, string> */
    public function headers(): array
    {
        /** @var array<string, string> */
        return $this->values['headers'];
    }

    private static function unknown(string $name): InvalidOptionException
    {
        $hint = '';
        foreach (array_keys(self::SCHEMA) as $known) {
            if (levenshtein($name, $known) <= 2) {
                $hint = \sprintf(' Did you mean "%s"?', $known);
                break;
            }
        }

        return new InvalidOptionException(\sprintf(
            'Unknown WarmHttp option "%s".%s Known options: %s.',
            $name,
            $hint,
            implode(', ', array_keys(self::SCHEMA)),
        ));
    }

    private static function check(string $name, string $type, mixed $value): mixed
    {
        if ($value === null && str_starts_with($type, '?')) {
            return null;
        }

        return match (ltrim($type, '?')) {
            'bool' => \is_bool($value) ? $value : throw self::wrong($name, 'a bool', $value),
            'string' => \is_string($value) && $value !== '' ? $value : throw self::wrong($name, 'a non-empty string', $value),
            'seconds' => self::seconds($name, $value),
            'count' => \is_int($value) && $value > 0 ? $value : throw self::wrong($name, 'a positive int', $value),
            'version' => \in_array($value, ['1.1', '2', '2-upgrade'], true) ? $value : throw self::wrong($name, '"1.1", "2" or "2-upgrade"', $value),
            'file' => self::file($name, $value),
            'headers' => self::headerMap($name, $value),
            'decoding' => ContentCodings::check($name, $value),
            'credential' => self::checkCredential($name, $value),
            'proxy' => ProxyOption::check($name, $value),
            'noproxy' => ProxyOption::checkNoProxy($name, $value),
            'hosts' => self::hostList($name, $value),
            'tls' => TlsVersions::check($name, $value),
            'cadir' => self::caDirectory($name, $value),
            'ipfamily' => $value === 'v4' || $value === 'v6' ? $value : throw self::wrong($name, '"v4" or "v6"', $value),
            'certtype' => \in_array($value, ['PEM', 'DER', 'P12'], true) ? $value : throw self::wrong($name, '"PEM", "DER" or "P12"', $value),
            'keytype' => \in_array($value, ['PEM', 'DER'], true) ? $value : throw self::wrong($name, '"PEM" or "DER"', $value),
            'httpauth' => self::httpAuthOf($name, $value),
            'callable' => \is_callable($value) ? $value : throw self::wrong($name, 'a callable', $value),
            'stream' => self::writableStream($name, $value),
            'dir' => \is_string($value) && str_starts_with($value, '/') ? rtrim($value, '/') : throw self::wrong($name, 'an absolute directory path', $value),
            'relay' => \is_string($value) ? RelayAddress::parse($value) : throw self::wrong($name, 'a relay address such as unix:///run/warmhttp/relay.sock', $value),
            'logger' => $value instanceof LoggerInterface ? $value : throw self::wrong($name, 'a PSR-3 Psr\Log\LoggerInterface', $value),
            default => throw new \LogicException("No checker for option type $type"),
        };
    }

    private static function seconds(string $name, mixed $value): float
    {
        if ((\is_int($value) || \is_float($value)) && $value >= 0) {
            return (float) $value;
        }

        throw self::wrong($name, 'a number of seconds >= 0 (0 means no limit)', $value);
    }

    private static function file(string $name, mixed $value): string
    {
        if (!\is_string($value)) {
            throw self::wrong($name, 'a path to a readable file', $value);
        }
        // A file any user may read (a CA bundle's 0644) is readable by what is_file()'s stat()
        // found, which fileperms() reads from PHP's stat cache: is_readable()'s access() is then
        // one syscall less on every PHP-FPM request's relay_sync construction (with PTI and no
        // PCID each one flushes the TLB: ~4 µs of the first call, hrtime marks in the worker).
        if (!is_file($value) || ((fileperms($value) & 0004) === 0 && !is_readable($value))) {
            throw new InvalidOptionException(\sprintf('Option "%s": the file "%s" does not exist or is not readable.', $name, $value));
        }

        return $value;
    }

    private static function caDirectory(string $name, mixed $value): string
    {
        if (!\is_string($value) || !str_starts_with($value, '/')) {
            throw self::wrong($name, 'the absolute path of a directory of CA certificates (hashed names, as openssl rehash makes them)', $value);
        }
        if (!is_dir($value) || !is_readable($value)) {
            throw new InvalidOptionException(\sprintf('Option "%s": the directory "%s" does not exist or is not readable.', $name, $value));
        }

        return $value;
    }

    /**
     * libcurl's challenge-response schemes; Basic is a header the caller sets itself.
     *
     * @return array{'digest'|'ntlm', string, string}
     */
    private static function httpAuthOf(string $name, mixed $value): array
    {
        if (\is_array($value) && array_is_list($value) && \count($value) === 3
            && ($value[0] === 'digest' || $value[0] === 'ntlm') && \is_string($value[1]) && $value[1] !== '' && \is_string($value[2])) {
            return [$value[0], $value[1], $value[2]];
        }

        throw self::wrong($name, '["digest" or "ntlm", user name, password]', $value);
    }

    /** @return resource */
    private static function writableStream(string $name, mixed $value): mixed
    {
        if (!\is_resource($value) || get_resource_type($value) !== 'stream') {
            throw self::wrong($name, 'an open stream resource to write curl\'s log to, such as STDERR or fopen(\'php://temp\', \'w+\')', $value);
        }
        $mode = stream_get_meta_data($value)['mode'];
        if (strpbrk($mode, 'waxc+') === false) {
            throw new InvalidOptionException(\sprintf('Option "%s" must be a writable stream; this one was opened with mode "%s".', $name, $mode));
        }

        return $value;
    }

    /**
     * Guzzle's shape: a path, or [path, passphrase] for an encrypted key.
     *
     * @return array{string, ?string}
     */
    private static function checkCredential(string $name, mixed $value): array
    {
        $expected = 'a file path, or [file path, passphrase]';
        if (\is_array($value) && array_is_list($value) && \count($value) === 2 && \is_string($value[1])) {
            return [self::file($name, $value[0]), $value[1]];
        }
        if (!\is_string($value)) {
            throw self::wrong($name, $expected, $value);
        }

        return [self::file($name, $value), null];
    }

    /** @return array<string, string> */
    private static function headerMap(string $name, mixed $value): array
    {
        if (!\is_array($value)) {
            throw self::wrong($name, 'an array of header name => string value', $value);
        }
        foreach ($value as $header => $headerValue) {
            if (!\is_string($header) || !\is_string($headerValue)) {
                throw self::wrong($name, 'an array of header name => string value', $value);
            }
        }

        /** @var array<string, string> $value */
        return $value;
    }

    /**
     * Host names as the relay's --allow-host takes them: "api.example.com", or
     * "*.example.com" for its subdomains.
     *
     * @return list<string>
     */
    private static function hostList(string $name, mixed $value): array
    {
        $expected = 'a list of host names such as ["hooks.internal", "*.example.com"]';
        if (!\is_array($value) || !array_is_list($value)) {
            throw self::wrong($name, $expected, $value);
        }
        foreach ($value as $host) {
            if (!\is_string($host) || preg_match('/^(\*\.)?[A-Za-z0-9._:\[\]-]+$/D', $host) !== 1) {
                throw new InvalidOptionException(\sprintf('Option "%s" must be %s; %s is not a host name.', $name, $expected, \is_string($host) ? '"' . $host . '"' : get_debug_type($host)));
            }
        }

        return array_map(strtolower(...), $value);
    }

    /** @internal for the checkers of single options (ContentCodings, ProxyOption) */
    public static function wrong(string $name, string $expected, mixed $value): InvalidOptionException
    {
        $shown = \is_scalar($value) ? var_export($value, true) : get_debug_type($value);

        return new InvalidOptionException(\sprintf(
            'Option "%s" must be %s, got %s %s.',
            $name,
            $expected,
            get_debug_type($value),
            $shown,
        ));
    }
}
