<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The receiving end of a streamed response: curl writes into it, the PSR-7 body reads from it.
 * When the reader falls behind, the transfer is paused (CURL_WRITEFUNC_PAUSE) rather than the
 * body piling up in memory: a 1 GB download holds at most about HIGH_WATER bytes.
 *
 * @internal
 */
final class BodyBuffer implements Waitable
{
    private const HIGH_WATER = 1048576;

    private string $data = '';

    private bool $paused = false;

    private bool $complete = false;

    private ?\Throwable $failure = null;

    private ?\CurlHandle $handle = null;

    private int $received = 0;

    public function attach(\CurlHandle $handle): void
    {
        $this->handle = $handle;
    }

    /** CURLOPT_WRITEFUNCTION */
    public function write(string $chunk): int
    {
        if (\strlen($this->data) >= self::HIGH_WATER) {
            $this->paused = true;

            return \CURL_WRITEFUNC_PAUSE;
        }
        $this->data .= $chunk;
        $this->received += \strlen($chunk);

        return \strlen($chunk);
    }

    public function received(): int
    {
        return $this->received;
    }

    public function finish(?\Throwable $failure): void
    {
        $this->complete = true;
        $this->failure = $failure;
        $this->handle = null;
    }

    public function isReady(): bool
    {
        return $this->data !== '' || $this->complete;
    }

    /** Curl has delivered everything (or failed); some of it may still wait to be taken. */
    public function isComplete(): bool
    {
        return $this->complete;
    }

    /** Bytes received and not yet taken. */
    public function buffered(): int
    {
        return \strlen($this->data);
    }

    public function isDrained(): bool
    {
        return $this->data === '' && $this->complete;
    }

    public function failure(): ?\Throwable
    {
        return $this->data === '' ? $this->failure : null;
    }

    public function take(int $length): string
    {
        $chunk = substr($this->data, 0, $length);
        $this->data = (string) substr($this->data, \strlen($chunk));
        if ($this->paused && $this->handle !== null && \strlen($this->data) < self::HIGH_WATER / 2) {
            $this->paused = false;
            curl_pause($this->handle, \CURLPAUSE_CONT);
        }

        return $chunk;
    }
}
