<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

use WarmHttp\Internal\TransferSpec;

/**
 * The absolute-form target of a request to forward (`https://api.example.com/x?y`), checked
 * as the Client checks a URI: it parses, its scheme is http or https, it names a host.
 *
 * @internal
 */
final readonly class Target
{
    private function __construct(
        /** Without fragment: what curl is given. */
        public string $url,
        public string $scheme,
        public string $host,
        /** The port curl connects to: the explicit one, or the scheme's default. */
        public int $port,
    ) {}

    /** @throws \InvalidArgumentException naming what is wrong with the target */
    public static function parse(string $target): self
    {
        $parts = parse_url($target);
        if ($parts === false) {
            throw new \InvalidArgumentException(\sprintf('The target "%s" is not a valid URI.', substr($target, 0, 200)));
        }
        $scheme = strtolower($parts['scheme'] ?? '');
        if ($scheme !== 'http' && $scheme !== 'https') {
            throw new \InvalidArgumentException(\sprintf('Unsupported URI scheme "%s" in "%s": the relay forwards only http and https.', $scheme, substr($target, 0, 200)));
        }
        $host = strtolower($parts['host'] ?? '');
        if ($host === '') {
            throw new \InvalidArgumentException(\sprintf('The target "%s" names no host.', substr($target, 0, 200)));
        }
        $hash = strpos($target, '#');
        $url = $hash === false ? $target : substr($target, 0, $hash);

        return new self($url, $scheme, $host, $parts['port'] ?? TransferSpec::defaultPort($scheme));
    }

    public function isIpLiteral(): bool
    {
        return filter_var(trim($this->host, '[]'), \FILTER_VALIDATE_IP) !== false;
    }
}
