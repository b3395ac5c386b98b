<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Wire\HeaderFilter;

/**
 * One request in the fallback journal: what to send, under which destination policy, and the
 * relay (and token) to offer it to first. Header values and the body are stored as bytes
 * (base64 in the meta line, the body raw after it), never as JSON text, so a signed webhook's
 * bytes go out unchanged; a checksum catches a damaged file.
 *
 * @internal
 */
final readonly class FallbackEntry
{
    private const MAGIC = "WARMHTTP-FALLBACK 1\n";

    public function __construct(
        public SpooledRequest $request,
        public FallbackPolicy $policy,
        public ?string $relay,
        public ?string $token,
    ) {}

    /** @param string $idempotencyKey the one the relay was (or would have been) given */
    public static function of(RequestInterface $request, string $idempotencyKey, FallbackPolicy $policy, ?RelayAddress $relay, ?string $token): self
    {
        $headers = [];
        foreach ($request->getHeaders() as $name => $values) {
            foreach ($values as $value) {
                $headers[] = [(string) $name, $value];
            }
        }
        $headers = array_values(array_filter(HeaderFilter::forUpstream($headers), static fn(array $h): bool => strcasecmp($h[0], 'Idempotency-Key') !== 0));
        $body = $request->getBody();
        if ($body->isSeekable()) {
            $body->rewind();
        }
        $spooled = new SpooledRequest(0, $request->getMethod(), (string) $request->getUri()->withFragment(''), $headers, $body->getContents(), $idempotencyKey, 0, microtime(true));

        return new self($spooled, $policy, $relay?->streamAddress(), $token);
    }

    public function encode(): string
    {
        $r = $this->request;
        $meta = [
            'method' => $r->method,
            'uri' => $r->uri,
            'headers' => array_map(static fn(array $h): array => [$h[0], base64_encode($h[1])], $r->headers),
            'key' => $r->idempotencyKey,
            'created' => $r->createdAt,
            'policy' => $this->policy->toArray(),
            'relay' => $this->relay,
            'token' => $this->token,
            'length' => \strlen($r->body),
            'crc' => hash('crc32b', $r->body),
        ];

        return self::MAGIC . json_encode($meta, \JSON_UNESCAPED_SLASHES | \JSON_THROW_ON_ERROR) . "\n" . $r->body;
    }

    /** @throws \UnexpectedValueException a damaged or foreign file */
    public static function decode(string $bytes, int $attempts): self
    {
        $lineEnd = str_starts_with($bytes, self::MAGIC) ? strpos($bytes, "\n", \strlen(self::MAGIC)) : false;
        if ($lineEnd === false) {
            throw new \UnexpectedValueException('not a fallback journal entry');
        }
        $meta = json_decode(substr($bytes, \strlen(self::MAGIC), $lineEnd - \strlen(self::MAGIC)), true);
        $body = substr($bytes, $lineEnd + 1);
        if (!\is_array($meta) || ($meta['length'] ?? null) !== \strlen($body) || ($meta['crc'] ?? null) !== hash('crc32b', $body)) {
            throw new \UnexpectedValueException('the entry is damaged (length or checksum mismatch)');
        }
        $request = new SpooledRequest(0, self::string($meta, 'method'), self::string($meta, 'uri'), self::headers($meta['headers'] ?? null), $body, self::string($meta, 'key'), $attempts, self::number($meta, 'created'));
        $policy = FallbackPolicy::fromArray(\is_array($meta['policy'] ?? null) ? $meta['policy'] : []);

        return new self($request, $policy, self::optional($meta, 'relay'), self::optional($meta, 'token'));
    }

    /** @param array<mixed> $meta */
    private static function string(array $meta, string $name): string
    {
        return \is_string($meta[$name] ?? null) ? $meta[$name] : throw new \UnexpectedValueException("the entry has no $name");
    }

    /** @param array<mixed> $meta */
    private static function optional(array $meta, string $name): ?string
    {
        return \is_string($meta[$name] ?? null) ? $meta[$name] : null;
    }

    /** @param array<mixed> $meta */
    private static function number(array $meta, string $name): float
    {
        $value = $meta[$name] ?? null;

        return \is_float($value) || \is_int($value) ? (float) $value : throw new \UnexpectedValueException("the entry has no $name");
    }

    /** @return list<array{string, string}> */
    private static function headers(mixed $headers): array
    {
        if (!\is_array($headers)) {
            throw new \UnexpectedValueException('the entry has no headers');
        }
        $list = [];
        foreach ($headers as $header) {
            $value = \is_array($header) && \is_string($header[1] ?? null) ? base64_decode($header[1], true) : false;
            if ($value === false || !\is_string($header[0] ?? null)) {
                throw new \UnexpectedValueException('the entry has an unreadable header');
            }
            $list[] = [$header[0], $value];
        }

        return $list;
    }
}
