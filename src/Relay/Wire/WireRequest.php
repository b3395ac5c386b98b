<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * One HTTP/1.1 request as it arrived on the relay's socket: an absolute-form target
 * (`POST https://api.example.com/x HTTP/1.1`) or, for the relay's own endpoints, origin-form.
 *
 * @internal
 */
final class WireRequest
{
    /*
     * Plain properties marked @readonly, not native readonly ones: one is made per request on
     * the front's hot path, and PHP 8.2 writes native readonly properties on the VM's slow
     * path (zend_std_write_property, ~160 instructions a write, callgrind).
     */

    /**
     * `X-WarmHttp-Mode`, lower-case and trimmed: async (spool, 202, deliver later) unless the caller asks for sync.
     *
     * @readonly
     */
    public string $mode;

    /**
     * @var array<string, string> lower-case name => first value (HeaderIndex); read by a
     *                            lower-case name on the front's hot path, without header()'s
     *                            call and strtolower()
     *
     * @readonly
     */
    public array $index;

    /**
     * @param list<array{string, string}>      $headers  name, value; in arrival order
     * @param array<string, string>|null       $index    HeaderIndex::of($headers), when the parser has it already
     * @param list<array{string, string}>|null $upstream HeaderFilter::forUpstream($headers), when the parser has it already
     * @param RequestHead|null                 $head     the head it was read with: the parser keeps a repeated
     *                                                   head's object, so it names a head seen before (SyncForwarder)
     */
    public function __construct(
        /** @readonly */
        public string $method,
        /** @readonly */
        public string $target,
        /** @readonly */
        public array $headers,
        /** @readonly */
        public string $body,
        /** @readonly */
        public bool $http10 = false,
        ?array $index = null,
        /** @readonly */
        private ?array $upstream = null,
        /** @readonly */
        public ?RequestHead $head = null,
    ) {
        $this->index = $index ?? HeaderIndex::of($headers);
        $this->mode = strtolower(trim($this->index['x-warmhttp-mode'] ?? 'async'));
    }

    /** The first value of a header, by its name in any case. */
    public function header(string $name): ?string
    {
        return $this->index[strtolower($name)] ?? null;
    }

    /** `X-WarmHttp-Mode`: async (spool, 202, deliver later) unless the caller asks for sync. */
    public function mode(): string
    {
        return $this->mode;
    }

    /**
     * The lines that go on to the destination (HeaderFilter::forUpstream()).
     *
     * @return list<array{string, string}>
     */
    public function upstreamHeaders(): array
    {
        return $this->upstream ?? HeaderFilter::forUpstream($this->headers);
    }

    public function keepAlive(): bool
    {
        $connection = strtolower($this->index['connection'] ?? '');

        return $this->http10 ? str_contains($connection, 'keep-alive') : !str_contains($connection, 'close');
    }

    public function isAbsoluteForm(): bool
    {
        return strncasecmp($this->target, 'https://', 8) === 0 || strncasecmp($this->target, 'http://', 7) === 0;
    }
}
