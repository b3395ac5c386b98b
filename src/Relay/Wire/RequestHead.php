<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * The parsed head of a request still arriving: enough to decide on 100-continue, 413 or 411
 * before its body has been read. RequestParser keeps heads it has seen and hands the same object
 * to every caller that sends the same bytes, so nothing may write to one after its constructor:
 * every property is @readonly, which PHPStan enforces (property.readOnlyByPhpDocAssign*).
 *
 * @internal
 */
final class RequestHead
{
    /*
     * Plain properties marked @readonly, not native readonly ones: one is made per request on
     * the front's hot path, and PHP 8.2 writes native readonly properties on the VM's slow
     * path (zend_std_write_property, ~160 instructions a write, callgrind).
     */

    /**
     * @var array<string, string> lower-case name => first value (HeaderIndex)
     *
     * @readonly
     */
    public array $index;

    /**
     * @param list<array{string, string}>      $headers
     * @param array<string, string>|null       $index    HeaderIndex::of($headers), when the parser has it already
     * @param list<array{string, string}>|null $upstream HeaderFilter::forUpstream($headers), when the parser has it already
     */
    public function __construct(
        /** @readonly */
        public string $method,
        /** @readonly */
        public string $target,
        /** @readonly */
        public array $headers,
        /** @readonly */
        public int $length,
        /** @readonly */
        public bool $http10,
        /** @readonly */
        public ?int $contentLength,
        /** @readonly */
        public bool $chunked,
        ?array $index = null,
        /** @readonly */
        public ?array $upstream = null,
    ) {
        $this->index = $index ?? HeaderIndex::of($headers);
    }

    /** The first value of a header, by its name in any case. */
    public function header(string $name): ?string
    {
        return $this->index[strtolower($name)] ?? null;
    }

    public function expectsContinue(): bool
    {
        foreach ($this->headers as [$name, $value]) {
            if (strcasecmp($name, 'Expect') === 0 && strcasecmp(trim($value), '100-continue') === 0) {
                return true;
            }
        }

        return false;
    }
}
