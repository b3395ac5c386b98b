<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * Reads the rig nginx access log (one JSON object per line, see NginxConfig).
 *
 * @internal test/bench tooling
 *
 * @phpstan-type Entry array{connection: int, requests: int, request: string, method: string, uri: string, status: int, reused: bool, port: int, time: float, protocol: string, bytes: int}
 */
final class AccessLog
{
    public function __construct(private readonly string $file) {}

    /**
     * @return list<Entry>
     */
    public function entries(): array
    {
        $entries = [];
        foreach (file($this->file, \FILE_IGNORE_NEW_LINES | \FILE_SKIP_EMPTY_LINES) ?: [] as $line) {
            $entry = json_decode($line, true);
            if (\is_array($entry)) {
                $entries[] = self::typed($entry);
            }
        }

        return $entries;
    }

    /**
     * @param array<mixed> $raw
     *
     * @return Entry
     */
    private static function typed(array $raw): array
    {
        $string = static fn(string $key): string => \is_scalar($raw[$key] ?? null) ? (string) $raw[$key] : '';

        return [
            'connection' => (int) $string('connection'),
            'requests' => (int) $string('requests'),
            'request' => $string('request'),
            'method' => $string('method'),
            'uri' => $string('uri'),
            'status' => (int) $string('status'),
            'reused' => $string('reused') === 'r',
            'port' => (int) $string('port'),
            'time' => (float) $string('time'),
            'protocol' => $string('protocol'),
            'bytes' => (int) $string('bytes'),
        ];
    }
}
