<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function ctype_xdigit;
use function explode;
use function fread;
use function hexdec;
use function preg_match;
use function str_starts_with;
use function stream_get_meta_data;
use function stream_set_timeout;
use function stripos;
use function strpos;
use function strspn;
use function substr;
use function trim;

/**
 * Reads the relay's answer to a relay_sync request from the kept stream, as libcurl reads it on
 * its hop: the head (interim 1xx heads skipped), then the body by its framing (Content-Length,
 * chunked, or until the relay closes), with the Client's timeouts (HopClock). A short body is
 * curl's error 18, as the relay means it (it closes the connection when the destination broke
 * off mid-body).
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 */
final class SyncAnswerReader
{
    /** Longer than any head the relay writes (it refuses heads over 64 KiB upstream). */
    private const MAX_HEAD_BYTES = 1 << 20;

    private const READ_BYTES = 65536;

    private string $buffer = '';

    /** Whether the stream may carry the next exchange once the body is read. */
    private bool $reusable = true;

    /** @param resource $stream */
    public function __construct(private $stream, private HopClock $clock) {}

    /**
     * The final head, from the status line to its blank line included.
     *
     * @throws HopFailure
     */
    public function head(): string
    {
        while (true) {
            $end = strpos($this->buffer, "\r\n\r\n");
            if ($end === false) {
                if (\strlen($this->buffer) > self::MAX_HEAD_BYTES) {
                    throw HopFailure::curl(\CURLE_WEIRD_SERVER_REPLY, 'the relay\'s answer head is too long');
                }
                $this->fill($this->buffer === '' ? \CURLE_GOT_NOTHING : \CURLE_RECV_ERROR);
                continue;
            }
            $head = substr($this->buffer, 0, $end + 4);
            $this->buffer = substr($this->buffer, $end + 4);
            // A status not starting with 1 is final: no regex for it (most answers)
            if (($head[9] ?? '') !== '1' || !self::isInterim($head)) {
                return $head;
            }
        }
    }

    /**
     * Whether $head, an answer head from the relay, is an interim one (1xx other than 101),
     * which a final answer follows on the same connection (RelaySocket reads past them too).
     */
    public static function isInterim(string $head): bool
    {
        return preg_match('#^HTTP/1\.[01] 1\d\d#', $head) === 1 && !str_starts_with(substr($head, 9), '101');
    }

    /**
     * Passes the body to $sink a piece at a time, as it arrives.
     *
     * @param \Closure(string): void $sink
     *
     * @throws HopFailure
     */
    public function body(string $head, bool $bodyless, \Closure $sink): void
    {
        // stripos() first: a regex per line the head mostly lacks cost ~1.5 k instructions each (callgrind)
        if (stripos($head, "\r\nconnection:") !== false && preg_match('/\r\nconnection:[ \t]*close/i', $head) === 1) {
            $this->reusable = false;
        }
        if ($bodyless) {
            return;
        }
        if (stripos($head, "\r\ntransfer-encoding:") !== false && preg_match('/\r\ntransfer-encoding:[ \t]*chunked/i', $head) === 1) {
            $this->chunked($sink);
        } elseif (($length = self::contentLength($head)) !== null) {
            $this->sized($length, $sink);
        } else {
            $this->untilClosed($sink);
        }
    }

    /**
     * The whole body as body() passes it on, in one string.
     *
     * @throws HopFailure
     */
    public function bodyBytes(string $head, bool $bodyless): string
    {
        if (!$bodyless && $this->buffer !== '' && stripos($head, "\r\nconnection:") === false && stripos($head, "\r\ntransfer-encoding:") === false
            && self::contentLength($head) === \strlen($this->buffer)) {
            // The common answer: its Content-Length body came whole with its head. What body()
            // passes on, without a closure and its call per piece, on the answer's critical path.
            $bytes = $this->buffer;
            $this->buffer = '';

            return $bytes;
        }
        $bytes = '';
        $this->body($head, $bodyless, static function (string $piece) use (&$bytes): void {
            $bytes .= $piece;
        });

        return $bytes;
    }

    /**
     * The first Content-Length line with digits, as /\r\ncontent-length:[ \t]*(\d+)/i finds it,
     * read with stripos() and strspn(): the regex cost ~2 k instructions per answer (callgrind).
     */
    private static function contentLength(string $head): ?int
    {
        $at = 0;
        while (($at = stripos($head, "\r\ncontent-length:", $at)) !== false) {
            $at += 17;
            $digitsAt = $at + strspn($head, " \t", $at);
            $digits = strspn($head, '0123456789', $digitsAt);
            if ($digits > 0) {
                return (int) substr($head, $digitsAt, $digits);
            }
        }

        return null;
    }

    /** Whether the whole answer was read and the relay keeps the connection. */
    public function reusable(): bool
    {
        return $this->reusable && $this->buffer === '';
    }

    /** @param \Closure(string): void $sink */
    private function sized(int $length, \Closure $sink): void
    {
        while ($length > 0) {
            if ($this->buffer === '') {
                $this->fill(\CURLE_PARTIAL_FILE, \sprintf('transfer closed with %d bytes remaining to read', $length));
            }
            $piece = \strlen($this->buffer) > $length ? substr($this->buffer, 0, $length) : $this->buffer;
            $this->buffer = (string) substr($this->buffer, \strlen($piece));
            $length -= \strlen($piece);
            $sink($piece);
        }
    }

    /** @param \Closure(string): void $sink */
    private function chunked(\Closure $sink): void
    {
        while (true) {
            $digits = trim(explode(';', $this->line(), 2)[0]);
            if (!ctype_xdigit($digits) || \strlen($digits) > 15) {
                throw $this->broken('Illegal or missing hexadecimal sequence in chunked-encoding');
            }
            $size = (int) hexdec($digits);
            if ($size === 0) {
                while ($this->line() !== '') {
                    // trailer fields: PSR-7 has no place for them (Transfer::receiveHeaderLine)
                }

                return;
            }
            $this->sized($size, $sink);
            if ($this->line() !== '') {
                throw $this->broken('Malformed encoding found in chunked-encoding');
            }
        }
    }

    /** One CRLF-ended line of the chunked framing, without its CRLF. */
    private function line(): string
    {
        while (($end = strpos($this->buffer, "\r\n")) === false) {
            $this->fill(\CURLE_PARTIAL_FILE, 'transfer closed with outstanding read data remaining');
        }
        $line = substr($this->buffer, 0, $end);
        $this->buffer = substr($this->buffer, $end + 2);

        return $line;
    }

    /** Framing that cannot be followed: libcurl's error 56 with its words; the connection is done. */
    private function broken(string $curlMessage): HopFailure
    {
        $this->reusable = false;

        return HopFailure::curl(\CURLE_RECV_ERROR, $curlMessage);
    }

    /** @param \Closure(string): void $sink */
    private function untilClosed(\Closure $sink): void
    {
        $this->reusable = false;
        while (true) {
            if ($this->buffer !== '') {
                $sink($this->buffer);
                $this->buffer = '';
            }
            if (!$this->read()) {
                return;
            }
        }
    }

    /**
     * Reads more into the buffer, or fails: the connection ended before what was expected.
     *
     * @throws HopFailure
     */
    private function fill(int $errno, string $curlMessage = ''): void
    {
        if ($this->read()) {
            return;
        }
        $this->reusable = false;
        if ($errno === \CURLE_GOT_NOTHING) {
            throw HopFailure::curl(\CURLE_GOT_NOTHING, 'Empty reply from server', null, true);
        }
        throw HopFailure::curl($errno, $curlMessage !== '' ? $curlMessage : 'Recv failure: the relay closed the connection mid-head');
    }

    /** @return bool false at the end of the stream */
    private function read(): bool
    {
        [$seconds, $micro] = $this->clock->wait();
        if ($seconds === 0 && $micro === 0) {
            $this->reusable = false;
            throw new HopFailure($this->clock->failure());
        }
        stream_set_timeout($this->stream, $seconds, $micro);
        $chunk = @fread($this->stream, self::READ_BYTES);
        if ($chunk === false || $chunk === '') {
            if (stream_get_meta_data($this->stream)['timed_out']) {
                $this->reusable = false;
                throw new HopFailure($this->clock->failure());
            }

            return false;
        }
        $this->clock->received();
        $this->buffer .= $chunk;

        return true;
    }
}
