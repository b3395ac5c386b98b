<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * Keeps HTTP/2 transfers to one origin on as few connections as their number needs.
 *
 * libcurl 7.88 puts at most 100 streams on a connection before the server's SETTINGS frame is
 * read, and past a connection's limit it opens a new connection for every further transfer:
 * CURLOPT_PIPEWAIT waits only for the first connection, not for the next ones while they are
 * being opened. Measured on the rig: 256 POSTs added at once to one HTTP/2 origin opened 157
 * connections, 157 TLS handshakes, and the relay then spread its deliveries over all of them.
 *
 * So the pool hands curl at most 100 streams per connection of an origin. A transfer past that
 * waits here, except one, the opener, which makes curl open one more connection; once the
 * opener has come back over HTTP/2, that connection's 100 streams are free too. 100 is what
 * RFC 9113 recommends servers allow at least. An origin that answers over HTTP/1.1 is not
 * held back (each transfer needs its own connection there, capped by max_host_connections).
 * When nothing to an origin is left in flight, its count starts again at one connection.
 *
 * A waiting transfer's timeout starts when it reaches curl. Only transfers that ask for
 * multiplexing (CURLOPT_PIPEWAIT: HTTPS, or HTTP/2 with prior knowledge) pass through here.
 *
 * @internal
 */
final class MultiplexGate
{
    public const STREAMS_PER_CONNECTION = 100;

    /** @var array<string, GatedOrigin> */
    private array $origins = [];

    /** @var array<int, string> the origin of every transfer in curl or waiting here, by spl_object_id */
    private array $originOf = [];

    private int $waiting = 0;

    /**
     * Whether admit() records transfers: from engage() until every origin it knows is idle.
     * While false, nothing waits and settled() has nothing to do: the pool skips both. Read by
     * the pool, written here only.
     */
    public bool $counting = false;

    /**
     * With fewer than STREAMS_PER_CONNECTION - 1 transfers in curl, no origin can reach its
     * limit: the transfer starts and nothing is recorded (the gate's bookkeeping cost ~7 k
     * instructions per request, issue 16). From there on the gate counts: it first records
     * every transfer already in curl, and counts until its origins are idle again.
     *
     * @param array<int, Transfer>|null $inCurl every transfer in curl now; null: always count
     *
     * @return bool true: start it now; false: it waits, and comes back from settled()
     */
    public function admit(Transfer $transfer, ?array $inCurl = null): bool
    {
        if ($inCurl !== null && !$this->counting) {
            if (\count($inCurl) < self::STREAMS_PER_CONNECTION - 1) {
                return true;
            }
            $this->engage($inCurl);
        }

        return $this->count($transfer);
    }

    /**
     * Records the transfers that went into curl while the gate did not count. None of their
     * origins has a response that told HTTP/2 yet as far as the gate knows, so a transfer
     * past 100 streams waits for the first one to come back before a new connection opens.
     *
     * @param array<int, Transfer> $inCurl
     */
    private function engage(array $inCurl): void
    {
        $this->counting = true;
        foreach ($inCurl as $transfer) {
            $key = self::originOf($transfer);
            if ($key !== null) {
                $this->originOf[spl_object_id($transfer)] = $key;
                $origin = $this->origins[$key] ??= new GatedOrigin();
                ++$origin->inCurl;
            }
        }
    }

    private function count(Transfer $transfer): bool
    {
        $key = self::originOf($transfer);
        if ($key === null) {
            return true;
        }
        $id = spl_object_id($transfer);
        $this->originOf[$id] = $key;
        $origin = $this->origins[$key] ??= new GatedOrigin();
        if ($origin->waiting === [] && $origin->take($transfer, self::STREAMS_PER_CONNECTION)) {
            return true;
        }
        $origin->waiting[$id] = $transfer;
        ++$this->waiting;

        return false;
    }

    /**
     * A transfer that admit() or settled() let into curl left it (finished, failed or cancelled).
     *
     * @param int  $httpVersion       CURLINFO_HTTP_VERSION of its response, 0 if none came
     * @param bool $openedConnection CURLINFO_NUM_CONNECTS > 0
     *
     * @return list<Transfer> the waiting transfers that may start now
     */
    public function settled(Transfer $transfer, int $httpVersion, bool $openedConnection): array
    {
        if ($this->originOf === []) {
            return [];
        }
        $id = spl_object_id($transfer);
        $key = $this->originOf[$id] ?? null;
        if ($key === null) {
            return [];
        }
        unset($this->originOf[$id]);
        $origin = $this->origins[$key];
        $origin->release($transfer, $openedConnection && $httpVersion === \CURL_HTTP_VERSION_2_0);
        if ($httpVersion === \CURL_HTTP_VERSION_2_0) {
            $origin->multiplexes = true;
        } elseif ($httpVersion !== 0) {
            $origin->multiplexes = false;
        }
        $ready = $this->ready($origin);
        if ($origin->isIdle()) {
            unset($this->origins[$key]);
            $this->counting = $this->origins !== [];
        }

        return $ready;
    }

    /** Takes a waiting transfer out (it was cancelled); false if it was not waiting. */
    public function withdraw(Transfer $transfer): bool
    {
        $id = spl_object_id($transfer);
        $origin = $this->origins[$this->originOf[$id] ?? ''] ?? null;
        if ($origin === null || !isset($origin->waiting[$id])) {
            return false;
        }
        unset($origin->waiting[$id], $this->originOf[$id]);
        --$this->waiting;

        return true;
    }

    public function waiting(): int
    {
        return $this->waiting;
    }

    /** @return list<Transfer> every waiting transfer, oldest first per origin */
    public function allWaiting(): array
    {
        $all = [];
        foreach ($this->origins as $origin) {
            array_push($all, ...array_values($origin->waiting));
        }

        return $all;
    }

    /** @return list<Transfer> */
    private function ready(GatedOrigin $origin): array
    {
        $ready = [];
        foreach ($origin->waiting as $id => $transfer) {
            if (!$origin->take($transfer, self::STREAMS_PER_CONNECTION)) {
                break;
            }
            unset($origin->waiting[$id]);
            --$this->waiting;
            $ready[] = $transfer;
        }

        return $ready;
    }

    private static function originOf(Transfer $transfer): ?string
    {
        return ($transfer->spec->curlOptions[\CURLOPT_PIPEWAIT] ?? false) === true ? $transfer->spec->origin : null;
    }
}
