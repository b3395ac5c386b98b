<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function hrtime;
use function intdiv;
use function max;
use function min;

use WarmHttp\Internal\CurlErrors;
use WarmHttp\Internal\Failure;
use WarmHttp\Internal\FailureKind;

/**
 * The Client's `timeout` and `read_timeout` on its hop to the relay (relay_sync over the kept
 * stream), timed as the curl hop times them: `timeout` from the start to the last body byte,
 * `read_timeout` since the last byte that moved. The relay's own timers run a second longer
 * (SyncSettings::BACKSTOP_SECONDS), so these fire first and say what a direct call says.
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 */
final class HopClock
{
    private int $startNs;

    private int $lastByteNs;

    private int $firstByteNs = 0;

    /** Whether the last wait() ends with the read timeout rather than the whole one. */
    private bool $readTimerFirst = false;

    /** @param float $timeout seconds, 0: none; $readTimeout likewise */
    public function __construct(private float $timeout, private float $readTimeout)
    {
        $this->startNs = $this->lastByteNs = hrtime(true);
    }

    /** The request went: the read timeout starts again. */
    public function sent(): void
    {
        $this->lastByteNs = hrtime(true);
    }

    /** Answer bytes came: the read timeout starts again. */
    public function received(): void
    {
        $this->lastByteNs = hrtime(true);
        if ($this->firstByteNs === 0) {
            $this->firstByteNs = $this->lastByteNs;
        }
    }

    /**
     * How long the next read or write may wait, for stream_set_timeout().
     *
     * @return array{int, int} seconds, microseconds; [0, 0] when a timer already ran out
     */
    public function wait(): array
    {
        $now = hrtime(true);
        $left = \PHP_INT_MAX;
        if ($this->timeout > 0) {
            $left = $this->startNs + (int) ($this->timeout * 1e9) - $now;
        }
        if ($this->readTimeout > 0) {
            $readLeft = $this->lastByteNs + (int) ($this->readTimeout * 1e9) - $now;
            $this->readTimerFirst = $readLeft < $left;
            $left = min($left, $readLeft);
        }
        if ($left === \PHP_INT_MAX) {
            return [31_536_000, 0]; // a year: PHP's default_socket_timeout would end a long answer
        }
        if ($left <= 0) {
            return [0, 0];
        }

        return [intdiv($left, 1_000_000_000), max(1, intdiv($left % 1_000_000_000, 1000))];
    }

    /** The timer that ran out (the one the last wait() ended with), in the words of the curl hop (CurlErrors, CurlPool). */
    public function failure(): Failure
    {
        if ($this->readTimerFirst) {
            return new Failure(FailureKind::Timeout, \sprintf('no byte arrived for %s s, the "read_timeout" option (%.3f s elapsed)', $this->readTimeout, $this->elapsedUs() / 1e6), \CURLE_OPERATION_TIMEDOUT);
        }

        return CurlErrors::classify(\CURLE_OPERATION_TIMEDOUT, '', ['connect_time_us' => 1, 'total_time_us' => $this->elapsedUs()], null);
    }

    public function elapsedUs(): int
    {
        return intdiv(hrtime(true) - $this->startNs, 1000);
    }

    /** Microseconds from the start to the answer's last byte read so far (curl's total time, once the answer is read). */
    public function lastByteUs(): int
    {
        return intdiv($this->lastByteNs - $this->startNs, 1000);
    }

    /** Microseconds from the start to the answer's first byte (curl's starttransfer time). */
    public function firstByteUs(): int
    {
        return $this->firstByteNs === 0 ? 0 : intdiv($this->firstByteNs - $this->startNs, 1000);
    }
}
