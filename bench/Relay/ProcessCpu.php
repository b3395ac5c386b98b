<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * CPU seconds (user + system) used so far by a process and its descendants, from /proc: the
 * relay may hand delivery to a child process, and "on one core" has to count both.
 *
 * @internal benchmark tooling
 */
final class ProcessCpu
{
    /** Linux reports in clock ticks; 100 per second on every architecture PHP supports. */
    private const TICKS_PER_SECOND = 100;

    /**
     * @return array<int, float>|null pid => CPU seconds, for $pid and each descendant alive now;
     *                                 null when /proc is not there to read (not Linux)
     */
    public static function byProcess(int $pid): ?array
    {
        if (!is_readable('/proc/' . $pid . '/stat')) {
            return null;
        }
        $seconds = [];
        foreach (self::tree($pid) as $member) {
            $seconds[$member] = (self::stat($member)['ticks'] ?? 0) / self::TICKS_PER_SECOND;
        }

        return $seconds;
    }

    /** @return list<int> $pid and every descendant alive now */
    private static function tree(int $pid): array
    {
        $children = [];
        foreach (glob('/proc/[0-9]*', \GLOB_ONLYDIR) ?: [] as $dir) {
            $stat = self::stat((int) basename($dir));
            if ($stat !== null) {
                $children[$stat['ppid']][] = (int) basename($dir);
            }
        }
        $tree = [$pid];
        for ($i = 0; $i < \count($tree); ++$i) {
            array_push($tree, ...($children[$tree[$i]] ?? []));
        }

        return $tree;
    }

    /** @return array{ppid: int, ticks: int}|null */
    private static function stat(int $pid): ?array
    {
        $stat = @file_get_contents('/proc/' . $pid . '/stat');
        // The command name (field 2) may hold spaces and parentheses: split after its last ")".
        if ($stat === false || false === ($end = strrpos($stat, ')'))) {
            return null;
        }
        $fields = explode(' ', substr($stat, $end + 2));

        // After the name: state ppid ... utime (field 14) stime (15), 0-based 1, 11 and 12 here.
        return ['ppid' => (int) ($fields[1] ?? 0), 'ticks' => (int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0)];
    }
}
