<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * The parsed head of a request still arriving: enough to decide on 100-continue, 413 or 411
 * before its body has been read.
 *
 * @internal
 */
final readonly class RequestHead
{
    /** @var array<string, string> lower-case name => first value (HeaderIndex) */
    public array $index;

    /**
     * @param list<array{string, string}>      $headers
     * @param array<string, string>|null       $index    HeaderIndex::of($headers), when the parser has it already
     * @param list<array{string, string}>|null $upstream HeaderFilter::forUpstream($headers), when the parser has it already
     */
    public function __construct(
        public string $method,
        public string $target,
        public array $headers,
        public int $length,
        public bool $http10,
        public ?int $contentLength,
        public bool $chunked,
        ?array $index = null,
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
