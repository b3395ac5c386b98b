<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use WarmHttp\Internal\Options;
use WarmHttp\Relay\Guard\DestinationGuard;

/**
 * How the app sends a request the relay did not take: the relay's destination policy (the
 * app cannot read the relay's command line, so it applies the relay's default, public
 * addresses only, unless the Client says otherwise with `relay_allow_private_networks` and
 * `relay_allowed_hosts`), and the curl settings of the send. Stored in each journal entry, so
 * whichever process sends it applies the policy of the Client that dispatched it.
 *
 * @internal
 */
final readonly class FallbackPolicy
{
    /** @param list<string> $allowedHosts exact names, or "*.example.com" */
    public function __construct(
        public bool $allowPrivate,
        public array $allowedHosts,
        public ?string $cafile,
        public float $timeout,
    ) {}

    public static function fromOptions(Options $options): self
    {
        /** @var list<string> $hosts checked by Options */
        $hosts = $options->list('relay_allowed_hosts');
        $timeout = $options->float('timeout');

        return new self($options->bool('relay_allow_private_networks'), $hosts, $options->string('cafile'), $timeout > 0.0 ? $timeout : 30.0);
    }

    public function guard(): DestinationGuard
    {
        return new DestinationGuard($this->allowPrivate, $this->allowedHosts);
    }

    /** Identifies equal policies, so senders (and their guards' DNS caches) are shared. */
    public function key(): string
    {
        return (string) json_encode([$this->allowPrivate, $this->allowedHosts, $this->cafile, $this->timeout]);
    }

    /** @return array{private: bool, hosts: list<string>, cafile: ?string, timeout: float} */
    public function toArray(): array
    {
        return ['private' => $this->allowPrivate, 'hosts' => $this->allowedHosts, 'cafile' => $this->cafile, 'timeout' => $this->timeout];
    }

    /** @param array<mixed> $data */
    public static function fromArray(array $data): self
    {
        $hosts = $data['hosts'] ?? null;
        $cafile = $data['cafile'] ?? null;
        $timeout = $data['timeout'] ?? null;
        if (!\is_bool($data['private'] ?? null) || !\is_array($hosts) || !array_is_list($hosts) || ($cafile !== null && !\is_string($cafile)) || !(\is_float($timeout) || \is_int($timeout))) {
            throw new \UnexpectedValueException('the entry\'s destination policy is unreadable');
        }
        $names = array_values(array_filter($hosts, is_string(...)));
        if (\count($names) !== \count($hosts)) {
            throw new \UnexpectedValueException('the entry\'s allowed hosts are unreadable');
        }

        return new self($data['private'], $names, $cafile, (float) $timeout);
    }
}
