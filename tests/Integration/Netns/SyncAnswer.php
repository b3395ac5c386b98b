<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

/**
 * One answer as SyncCaller read it off the relay socket. Its head is read as lenient clients
 * do (RFC 9112 2.2 lets a recipient end a line at a bare LF): a relay that writes the
 * destination's bare-LF lines would hand those clients the destination's own headers.
 */
final readonly class SyncAnswer
{
    /** @param array<string, list<string>> $headers lower-case names */
    private function __construct(public string $head, public int $status, public array $headers, public string $body) {}

    public static function head(string $head): self
    {
        $lines = array_map(static fn(string $line): string => rtrim($line, "\r"), explode("\n", rtrim($head, "\r\n")));
        $status = (int) substr(array_shift($lines), 9, 3);
        $headers = [];
        foreach ($lines as $line) {
            [$name, $value] = explode(':', $line, 2) + [1 => ''];
            $headers[strtolower($name)][] = trim($value);
        }

        return new self($head, $status, $headers, '');
    }

    public function withBody(string $body): self
    {
        return new self($this->head, $this->status, $this->headers, $body);
    }

    public function header(string $name): ?string
    {
        $values = $this->headers[$name] ?? null;

        return $values === null ? null : implode(', ', $values);
    }
}
