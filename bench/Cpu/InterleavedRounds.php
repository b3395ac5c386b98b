<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Cpu;

use Symfony\Component\Console\Helper\ProgressBar;
use WarmHttp\Bench\BenchContext;
use WarmHttp\Bench\Scenario;

/**
 * CPU (getrusage() user + sys of this process only: nginx is another) and wall time per
 * request of several clients, measured in rounds that interleave them, so load drift hits all
 * of them alike; who goes first rotates, since the first client after a pause tends to pay for
 * cold caches. Many short rounds rather than a few long ones: the groups compare clients round
 * by round (PairedRatios), and a median over 25 pairs holds where one over 5 rounds swung.
 *
 * The CPU time is user + sys: both are CPU this process spends on the request (the syscalls
 * that move its bytes, poll() and getpid() included), and a client that moves work into the
 * kernel must not look cheaper for it. Their sum is exact to the µs here (getrusage() sums the
 * scheduler's runtime; only its split between user and sys is estimated from ticks).
 *
 * @internal bench tooling
 */
final class InterleavedRounds
{
    /**
     * @param array<int, Scenario> $scenarios
     * @param int                  $requests  per client, over all rounds
     * @param int                  $rounds    at most, each of $requests / $rounds requests per client (at least one)
     * @param int                  $warmUp    requests per client before the first round
     *
     * @return array<int, array{cpu: non-empty-list<float>, wall: non-empty-list<float>}> µs per request, by the scenarios' keys, one per round in the order run
     */
    public static function sample(BenchContext $context, array $scenarios, string $url, int $requests, int $rounds, int $warmUp): array
    {
        $rounds = max(1, min($rounds, $requests));
        $batch = max(1, intdiv($requests, $rounds));
        $urls = array_fill(0, $batch, $url);
        $senders = [];
        foreach ($scenarios as $i => $scenario) {
            $senders[$i] = $scenario->open($context->targets->tls());
            $senders[$i](...array_fill(0, $warmUp, $url));
        }
        if ($senders === []) {
            return [];
        }
        $bar = new ProgressBar($context->progress, $rounds * \count($senders));
        $samples = [];
        for ($round = 0; $round < $rounds; ++$round) {
            $order = array_keys($senders);
            $order = [...\array_slice($order, $round % \count($order)), ...\array_slice($order, 0, $round % \count($order))];
            foreach ($order as $i) {
                $bar->advance();
                [$cpu, $wall] = self::time($senders[$i], $urls);
                $samples[$i]['cpu'][] = $cpu / $batch;
                $samples[$i]['wall'][] = $wall / $batch;
            }
        }
        $bar->clear();

        return $samples;
    }

    /**
     * @param \Closure(string...): void $send
     * @param list<string>              $urls
     *
     * @return array{float, float} CPU µs (user + sys), wall µs
     */
    private static function time(\Closure $send, array $urls): array
    {
        $before = getrusage();
        $start = hrtime(true);
        $send(...$urls);
        $wall = (hrtime(true) - $start) / 1e3;
        $after = getrusage();

        return [self::cpuUs($after) - self::cpuUs($before), $wall];
    }

    /** @param array<mixed>|false $usage */
    private static function cpuUs(array|false $usage): float
    {
        $field = static fn(string $key): int => \is_int($usage[$key] ?? null) ? $usage[$key] : 0;

        return ($field('ru_utime.tv_sec') + $field('ru_stime.tv_sec')) * 1e6 + $field('ru_utime.tv_usec') + $field('ru_stime.tv_usec');
    }
}
