<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

/**
 * Both sides of a parity case. `compared($ignore)` gives both sides with the ignored dotted
 * paths removed (e.g. 'seen.context', 'received.0.headers'), ready for assertSame.
 */
final class ParityResult
{
    public function __construct(public readonly Side $guzzle, public readonly Side $warm) {}

    /**
     * @param list<string> $ignore dotted paths to leave out of the comparison, each with a reason at the call site
     *
     * @return array{guzzle: array<mixed>, warm: array<mixed>}
     */
    public function compared(array $ignore = []): array
    {
        return ['guzzle' => self::without($this->guzzle->toArray(), $ignore), 'warm' => self::without($this->warm->toArray(), $ignore)];
    }

    /**
     * @param array<mixed> $data
     * @param list<string> $ignore
     *
     * @return array<mixed>
     */
    private static function without(array $data, array $ignore): array
    {
        foreach ($ignore as $path) {
            $data = self::unsetPath($data, explode('.', $path));
        }

        return $data;
    }

    /**
     * @param array<mixed> $data
     * @param list<string> $keys '*' matches every key at its level
     *
     * @return array<mixed>
     */
    private static function unsetPath(array $data, array $keys): array
    {
        $key = array_shift($keys);
        foreach (array_keys($data) as $k) {
            if ($key !== '*' && (string) $k !== $key) {
                continue;
            }
            if ($keys === []) {
                unset($data[$k]);
            } elseif (\is_array($data[$k])) {
                $data[$k] = self::unsetPath($data[$k], $keys);
            }
        }

        return $data;
    }
}
