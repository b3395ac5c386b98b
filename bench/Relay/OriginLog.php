<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Rig\Nginx;

/**
 * Counts what reached the rig nginx with a run's tag: requests logged, and distinct ids (so a
 * delivery sent twice is a duplicate, not two). Reads only the bytes appended since it was
 * created, so polling stays cheap however long the shared log has grown.
 *
 * @internal benchmark tooling
 */
final class OriginLog
{
    private string $partial = '';
    private int $requests = 0;
    /** @var array<int|string, true> ids seen (numeric keys turn into ints) */
    private array $ids = [];

    private function __construct(private readonly string $file, private int $offset, private readonly string $tag) {}

    /** Follows requests whose URI carries "$tag" (e.g. "tp=ab12cd"), from now on. */
    public static function follow(Nginx $nginx, string $tag): self
    {
        $file = $nginx->dir() . '/access.log';
        clearstatcache(true, $file);

        return new self($file, (int) @filesize($file), $tag);
    }

    /**
     * Polls until $expected distinct ids arrived or $timeoutSeconds passed.
     *
     * @return float|null microtime() when the last one was seen, null on timeout
     */
    public function await(int $expected, float $timeoutSeconds): ?float
    {
        $deadline = microtime(true) + $timeoutSeconds;
        while ($this->read() < $expected) {
            if (microtime(true) > $deadline) {
                return null;
            }
            usleep(2_000);
        }

        return microtime(true);
    }

    public function distinct(): int
    {
        return \count($this->ids);
    }

    public function requests(): int
    {
        return $this->requests;
    }

    private function read(): int
    {
        clearstatcache(true, $this->file);
        $chunk = @file_get_contents($this->file, false, null, $this->offset);
        if ($chunk !== false && $chunk !== '') {
            $this->offset += \strlen($chunk);
            $lines = explode("\n", $this->partial . $chunk);
            $this->partial = (string) array_pop($lines);
            foreach ($lines as $line) {
                // The URI is logged as sent; a plain substring test avoids json_decode per line.
                if (str_contains($line, $this->tag) && preg_match('/[?&]id=(\d+)/', $line, $m) === 1) {
                    ++$this->requests;
                    $this->ids[$m[1]] = true;
                }
            }
        }

        return \count($this->ids);
    }
}
