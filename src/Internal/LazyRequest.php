<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function array_values;

use Nyholm\Psr7\Request;
use Nyholm\Psr7\Uri;

use function preg_match;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Http\Message\UriInterface;

use function strcasecmp;

/**
 * What Client::createRequest() returns for an http(s) URL already in the form nyholm's Uri
 * writes it back (most URLs a program builds): a request that holds the URL as a string and
 * parses it only when someone asks for its Uri. It reads like the nyholm Request it stands for
 * (a Host header first, protocol 1.1, an empty MemoryStream body); from its first with*() on,
 * the copy reads through that nyholm Request, changed. Parsing the URL through nyholm's Uri per request cost ~15 k
 * instructions of a warm request (callgrind, issue 16): a URL seen before is not parsed again.
 *
 * @internal
 */
final class LazyRequest implements RequestInterface
{
    /** URLs remembered at most: a program that never repeats a URL pays one parse per URL, as before. */
    private const KNOWN_URLS = 512;

    /** @var array<string, array{string, string, string, int}|false> URL => [Host header, scheme, host, port], false if not in normal form */
    private static array $known = [];

    private ?StreamInterface $body = null;

    /** The nyholm request this one became on its first with*(): every read goes to it from then on. */
    private ?RequestInterface $changed = null;

    /**
     * Public for the Client's hot path, written by of() only. Typed by their docblocks,
     * declared with a value, neither native readonly nor promoted: one request is made per
     * call, and PHP 8.2 checks a native type on every write (~35 instructions each) and writes
     * native readonly ones on its slow path.
     *
     * @var string
     */
    public $method = '';

    /** @var string */
    public $url = '';

    /** @var array{string, string, string, int} [Host header ("host" or "host:port", as nyholm writes it), scheme, host, port connected to] */
    public $parts = ['', '', '', 0];

    /**
     * Nothing was made of it and its body was never handed out: it is as created without
     * asking isAsCreated() (the Client's hot path, a call less: ~0.2 k instructions). False
     * does not mean changed: isAsCreated() then decides.
     *
     * @var bool
     */
    public $untouched = true;

    private ?UriInterface $uri = null;

    /**
     * Made by of() without a constructor: one request is made per call, and a constructor's
     * call frame cost ~250 instructions of it (callgrind, issue 16).
     *
     * @param array{string, string, string, int} $parts
     */
    private static function make(string $method, string $url, array $parts): self
    {
        $request = new self();
        $request->method = $method;
        $request->url = $url;
        $request->parts = $parts;

        return $request;
    }

    /** A lazy request for $url, or null when the URL is not an http(s) URL in normal form. */
    public static function of(string $method, string $url): ?self
    {
        $known = self::$known[$url] ?? null;
        if ($known === null) {
            return self::parsed($method, $url);
        }

        if ($known === false) {
            return null;
        }
        $request = new self();
        $request->method = $method;
        $request->url = $url;
        $request->parts = $known;

        return $request;
    }

    /**
     * An http(s) URL nyholm's Uri writes back unchanged, whatever it would parse it into: lower
     * case scheme and host, a port that is not the scheme's default, no user info or fragment,
     * path and query of characters nyholm keeps as they are (valid %XX included). Checked by
     * one regex instead of nyholm's parse and write-back, which loads two files and cost ~14 k
     * instructions of a relay_sync first call per PHP-FPM request (callgrind, issue 16). A URL it
     * does not match goes through nyholm as before; LazyRequestTest holds the two to agree.
     */
    private const PLAIN_URL = '#^(https?)://([a-z0-9][a-z0-9.-]*|\[[0-9a-f:.]+\])(?::([1-9][0-9]{0,4}))?'
        . '(?:/(?:[a-zA-Z0-9_.~!$&\'()*+,;=:@/-]|%[0-9A-Fa-f]{2})*)?(?:\?(?:[a-zA-Z0-9_.~!$&\'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})++)?$#D';

    /** @return array{string, string, string, int}|null [Host header, scheme, host, port], null: ask nyholm */
    private static function plain(string $url): ?array
    {
        if (preg_match(self::PLAIN_URL, $url, $match) !== 1) {
            return null;
        }
        [, $scheme, $host] = $match;
        if (($match[3] ?? '') === '') {
            return [$host, $scheme, $host, $scheme === 'https' ? 443 : 80];
        }
        $port = (int) $match[3];
        if ($port > 0xFFFF || $port === ($scheme === 'https' ? 443 : 80)) {
            return null;
        }

        return [$host . ':' . $port, $scheme, $host, $port];
    }

    private static function parsed(string $method, string $url): ?self
    {
        if (\count(self::$known) >= self::KNOWN_URLS) {
            self::$known = [];
        }
        $plain = self::plain($url);
        if ($plain !== null) {
            self::$known[$url] = $plain;

            return self::make($method, $url, $plain);
        }
        try {
            $uri = new Uri($url);
        } catch (\InvalidArgumentException) {
            return null; // nyholm's own message, from the fallback
        }
        $scheme = $uri->getScheme();
        $host = $uri->getHost();
        if (($scheme !== 'http' && $scheme !== 'https') || $host === '' || $uri->getFragment() !== '' || (string) $uri !== $url) {
            self::$known[$url] = false;

            return null;
        }
        $port = $uri->getPort();
        $known = [$port === null ? $host : $host . ':' . $port, $scheme, $host, $port ?? TransferSpec::defaultPort($scheme)];
        self::$known[$url] = $known;

        $request = self::make($method, $url, $known);
        $request->uri = $uri;

        return $request;
    }

    /** Whether it is still as createRequest() made it: no with*(), nothing written to its body. */
    public function isAsCreated(): bool
    {
        return $this->changed === null && ($this->body === null || $this->body->getSize() === 0);
    }

    public function getProtocolVersion(): string
    {
        return $this->changed === null ? '1.1' : $this->changed->getProtocolVersion();
    }

    public function withProtocolVersion(string $version): static
    {
        return $this->with($this->psr7()->withProtocolVersion($version));
    }

    /** @return array<string, list<string>> */
    public function getHeaders(): array
    {
        /** @var array<string, list<string>> */
        return $this->changed === null ? ['Host' => [$this->parts[0]]] : $this->changed->getHeaders();
    }

    public function hasHeader(string $name): bool
    {
        return $this->changed === null ? strcasecmp($name, 'Host') === 0 : $this->changed->hasHeader($name);
    }

    /** @return list<string> */
    public function getHeader(string $name): array
    {
        if ($this->changed !== null) {
            return array_values($this->changed->getHeader($name));
        }

        return strcasecmp($name, 'Host') === 0 ? [$this->parts[0]] : [];
    }

    public function getHeaderLine(string $name): string
    {
        if ($this->changed !== null) {
            return $this->changed->getHeaderLine($name);
        }

        return strcasecmp($name, 'Host') === 0 ? $this->parts[0] : '';
    }

    public function withHeader(string $name, $value): static
    {
        return $this->with($this->psr7()->withHeader($name, $value));
    }

    public function withAddedHeader(string $name, $value): static
    {
        return $this->with($this->psr7()->withAddedHeader($name, $value));
    }

    public function withoutHeader(string $name): static
    {
        return $this->with($this->psr7()->withoutHeader($name));
    }

    public function getBody(): StreamInterface
    {
        if ($this->changed !== null) {
            return $this->changed->getBody();
        }
        $this->untouched = false;

        return $this->body ??= new MemoryStream();
    }

    public function withBody(StreamInterface $body): static
    {
        return $this->with($this->psr7()->withBody($body));
    }

    public function getRequestTarget(): string
    {
        return $this->psr7()->getRequestTarget();
    }

    public function withRequestTarget(string $requestTarget): static
    {
        return $this->with($this->psr7()->withRequestTarget($requestTarget));
    }

    public function getMethod(): string
    {
        return $this->changed === null ? $this->method : $this->changed->getMethod();
    }

    public function withMethod(string $method): static
    {
        return $this->with($this->psr7()->withMethod($method));
    }

    public function getUri(): UriInterface
    {
        return $this->changed === null ? $this->uri ??= new Uri($this->url) : $this->changed->getUri();
    }

    public function withUri(UriInterface $uri, bool $preserveHost = false): static
    {
        return $this->with($this->psr7()->withUri($uri, $preserveHost));
    }

    /** The nyholm request this one stands for: same method, Uri object and body stream. */
    private function psr7(): RequestInterface
    {
        return $this->changed ?? (new Request($this->method, $this->getUri()))->withBody($this->getBody());
    }

    private function with(RequestInterface $changed): static
    {
        $copy = clone $this;
        $copy->changed = $changed;
        $copy->untouched = false;

        return $copy;
    }
}
