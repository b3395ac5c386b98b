<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Cpu;

/**
 * One client's cost over another's, round by round (InterleavedRounds): each round's ratio
 * compares two batches run moments apart, so a noisy spell of the machine moves both sides of
 * it; the median of these ratios is the figure, p25-p75 its spread. A ratio of the two sides'
 * medians instead lets one noisy round of either side decide it (0.79× then 1.29× in a run and
 * its repeat of the same code, docs/bench-results, issue 16).
 *
 * @internal bench tooling
 */
final readonly class PairedRatios
{
    private function __construct(public float $median, public float $p25, public float $p75, public int $rounds) {}

    /**
     * @param non-empty-list<float> $own  per round, in the order measured
     * @param non-empty-list<float> $base the same rounds of the client compared to
     */
    public static function of(array $own, array $base): self
    {
        $ratios = [];
        foreach ($own as $round => $value) {
            $ratios[] = $value / max(0.001, $base[$round] ?? $base[array_key_last($base)]);
        }
        sort($ratios);

        return new self(self::quantile($ratios, 0.5), self::quantile($ratios, 0.25), self::quantile($ratios, 0.75), \count($ratios));
    }

    /** "p25–p75 1.02–1.12× over 25 paired rounds" */
    public function spread(): string
    {
        return \sprintf('p25–p75 %.2f–%.2f× over %d paired rounds', $this->p25, $this->p75, $this->rounds);
    }

    /**
     * Linear between the two nearest ranks (numpy's default): the median of an even count is
     * the mean of its middle two, as Spread's.
     *
     * @param non-empty-list<float> $sorted
     */
    private static function quantile(array $sorted, float $q): float
    {
        $at = $q * (\count($sorted) - 1);
        $below = (int) floor($at);
        $above = min($below + 1, \count($sorted) - 1);

        return $sorted[$below] + ($sorted[$above] - $sorted[$below]) * ($at - $below);
    }
}
