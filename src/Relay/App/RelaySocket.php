<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * dispatch()'s exchanges with the relay, on the process's kept connection (RelayConnection): a
 * hand-off then costs one write and one read (about 15 µs measured on a reused unix socket), no
 * connect.
 *
 * @internal
 */
final class RelaySocket
{
    private readonly RelayConnection $connection;

    public function __construct(RelayAddress $address, private readonly float $timeoutSeconds = 2.0)
    {
        $this->connection = RelayConnection::to($address);
    }

    /**
     * Writes one request and reads its answer. A kept socket the relay closed meanwhile (a
     * restart) shows up here: reconnect once and send again (an async hand-off carries its
     * Idempotency-Key: the relay spools it once).
     *
     * @return array{int, string} status, X-WarmHttp-Error (or body)
     *
     * @throws RelayUnreachable
     */
    public function exchange(string $request): array
    {
        for ($attempt = 1; ; ++$attempt) {
            $stream = $this->connection->take($this->timeoutSeconds);
            stream_set_timeout($stream, (int) $this->timeoutSeconds, (int) (fmod($this->timeoutSeconds, 1.0) * 1e6));
            try {
                return $this->roundTrip($stream, $request);
            } catch (RelayUnreachable $e) {
                $this->connection->drop();
                if ($attempt > 1) {
                    throw $e;
                }
            }
        }
    }

    /**
     * Writes the request and reads its final answer: interim 1xx heads (a 100 Continue for a
     * request that carries `Expect`) are skipped, as curl skips them. The stream is kept for the
     * next exchange (settled) only when the answer is framed by its Content-Length, does not
     * close the connection, and nothing came past it: bytes past it would be read as the next
     * exchange's answer, so the connection is dropped instead.
     *
     * @param resource $stream
     *
     * @return array{int, string}
     */
    private function roundTrip($stream, string $request): array
    {
        $written = @fwrite($stream, $request);
        if ($written !== \strlen($request)) {
            throw new RelayUnreachable('the relay connection broke while sending');
        }
        $this->connection->claim();
        $buffer = '';
        while (true) {
            while (($end = strpos($buffer, "\r\n\r\n")) === false) {
                $buffer .= $this->read($stream);
            }
            // A status not starting with 1 is final, told without loading SyncAnswerReader (most answers).
            if (($buffer[9] ?? '') !== '1' || !SyncAnswerReader::isInterim($buffer)) {
                break;
            }
            $buffer = substr($buffer, $end + 4);
        }
        $length = self::contentLength($buffer, $end);
        $answerLength = $end + 4 + ($length ?? 0);
        while (\strlen($buffer) < $answerLength) {
            $buffer .= $this->read($stream);
        }
        if ($length !== null && \strlen($buffer) === $answerLength && stripos(substr($buffer, 0, $end), "\r\nconnection: close") === false) {
            $this->connection->settle();
        } else {
            $this->connection->drop();
        }

        return self::parse(substr($buffer, 0, $answerLength), $end);
    }

    /**
     * @param resource $stream
     *
     * @throws RelayUnreachable the relay closed the connection or did not answer in time
     */
    private function read($stream): string
    {
        $chunk = @fread($stream, 65536);
        if ($chunk === false || $chunk === '') {
            $timedOut = stream_get_meta_data($stream)['timed_out'];

            throw new RelayUnreachable($timedOut ? \sprintf('the relay did not answer within %ss', $this->timeoutSeconds) : 'the relay closed the connection before answering');
        }

        return $chunk;
    }

    /** The head's Content-Length; null without one (the relay always sends one: its answers are all short). */
    private static function contentLength(string $buffer, int $headEnd): ?int
    {
        return preg_match('/\r\ncontent-length:\s*(\d+)/i', substr($buffer, 0, $headEnd), $m) === 1 ? (int) $m[1] : null;
    }

    /** @return array{int, string} */
    private static function parse(string $buffer, int $headEnd): array
    {
        if (preg_match('#^HTTP/1\.[01] (\d{3})#', $buffer, $m) !== 1) {
            throw new RelayUnreachable('the relay answered something that is not HTTP');
        }
        $error = preg_match('/\r\nx-warmhttp-error:\s*([^\r]*)/i', substr($buffer, 0, $headEnd), $e) === 1 ? $e[1] : trim(substr($buffer, $headEnd + 4));

        return [(int) $m[1], $error];
    }
}
