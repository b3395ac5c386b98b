<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * JSON counters shared between a rig child process and the test: written with rename() so a
 * reader never sees half a file.
 *
 * @internal test/bench tooling
 */
final class StatsFile
{
    /**
     * @param array<string, mixed> $data
     */
    public static function write(string $path, array $data): void
    {
        $tmp = $path . '.' . getmypid() . '.tmp';
        file_put_contents($tmp, json_encode($data, \JSON_THROW_ON_ERROR));
        rename($tmp, $path);
    }

    /**
     * @return array<string, mixed>
     */
    public static function read(string $path): array
    {
        $json = @file_get_contents($path);
        if ($json === false || $json === '') {
            return [];
        }
        $data = json_decode($json, true, 16, \JSON_THROW_ON_ERROR);
        if (!\is_array($data)) {
            return [];
        }
        $result = [];
        foreach ($data as $key => $value) {
            $result[(string) $key] = $value;
        }

        return $result;
    }
}
