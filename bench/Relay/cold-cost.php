<?php

// What one call costs on a CPU come back cold from a wait, as a PHP-FPM worker's is when the
// relay's answer arrives: each call is timed alone, right after a 20 ms sleep, and the p50 of
// its rounds is printed beside the same call timed warm. Not a bench row: the numbers behind the
// choices on relay_sync's first-call path (docs/benchmarks.md), for a machine to be compared.
// Usage: php -d opcache.enable_cli=1 bench/Relay/cold-cost.php [ROUNDS]  (40 by default)
declare(strict_types=1);

$rounds = max(5, (int) ($argv[1] ?? 40));
$head = "HTTP/1.1 200 \r\nserver: nginx\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nX-WarmHttp-Version: 2\r\n\r\n";
$file = __FILE__;
$pair = stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
if ($pair === false) {
    fwrite(\STDERR, "cannot make a socket pair\n");
    exit(1);
}
[$near] = $pair;
stream_set_read_buffer($near, 0);
$calls = [
    'an empty closure (the timing itself)' => static fn(): null => null,
    'strpos()' => static fn(): int|false => strpos($head, "\r\nX-WarmHttp-Version:"),
    'stripos()' => static fn(): int|false => stripos($head, "\r\nx-warmhttp-version:"),
    'preg_match(), a cached pattern' => static fn(): int => (int) preg_match('/\r\ncontent-length:[ \t]*(\d+)/i', $head),
    'new object, three promoted properties' => static fn(): object => new ColdCostProbe(1, 'a', null),
    'stream_set_chunk_size() (no syscall)' => static fn(): int => stream_set_chunk_size($near, 8192),
    'stream_select(), timeout 0 (pselect)' => static function () use ($near): int|false {
        $read = [$near];
        $write = $except = null;

        return stream_select($read, $write, $except, 0);
    },
    'is_file() + fileperms(), stat cache cleared (stat)' => static function () use ($file): bool {
        clearstatcache();

        return is_file($file) && fileperms($file) > 0;
    },
];
$timed = static function (Closure $call): float {
    $start = hrtime(true);
    $call();

    return (hrtime(true) - $start) / 1000;
};
$median = static function (float ...$values): float {
    sort($values);

    return $values[intdiv(count($values), 2)];
};
printf("%-52s %10s %10s\n", sprintf('p50 of %d rounds, µs', $rounds), 'cold', 'warm');
foreach ($calls as $name => $call) {
    $call();
    $cold = $warm = [];
    for ($i = 0; $i < $rounds; ++$i) {
        usleep(20_000);
        $cold[] = $timed($call);
        $warm[] = $timed($call);
    }
    printf("%-52s %10.2f %10.2f\n", $name, $median(...$cold), $median(...$warm));
}

final class ColdCostProbe
{
    public function __construct(public int $a, public string $b, public ?string $c) {}
}
