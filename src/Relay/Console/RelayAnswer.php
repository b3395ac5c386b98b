<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

/**
 * What the running relay says on its socket (GET /metrics) about deliveries in flight, or why
 * it could not be asked: not running is one reason, a socket this user may not open another.
 *
 * @internal
 */
final readonly class RelayAnswer
{
    /**
     * @param bool|null $running  null: could not tell (a socket this user may not open)
     * @param string    $problem  why there is no in-flight count, for people; '' when there is one
     */
    private function __construct(public ?bool $running, public ?int $inFlight, public string $problem) {}

    public static function ask(?string $socket): self
    {
        if ($socket === null) {
            return new self(null, null, 'unknown: the relay listens on TCP only (--socket=none)');
        }
        $dir = \dirname($socket);
        if (is_dir($dir) && !is_executable($dir)) {
            return self::forbidden($dir);
        }
        if (!file_exists($socket)) {
            return new self(false, null, \sprintf('relay not running (no socket at %s; pass --socket=PATH if it listens elsewhere)', $socket));
        }
        $stream = @stream_socket_client('unix://' . $socket, $errno, $error, 1.0);
        if ($stream === false) {
            // EACCES: the socket is mode 0660, for the relay's user and group only
            return $errno === 13 ? self::forbidden($socket) : new self(false, null, \sprintf('relay not running (nothing answers on %s: %s)', $socket, $error));
        }
        stream_set_timeout($stream, 2);
        fwrite($stream, "GET /metrics HTTP/1.1\r\nHost: relay\r\nConnection: close\r\n\r\n");
        $metrics = (string) stream_get_contents($stream);
        fclose($stream);

        return preg_match('/^warmhttp_relay_in_flight (\d+)/m', $metrics, $m) === 1
            ? new self(true, (int) $m[1], '')
            : new self(true, null, \sprintf('unknown: %s answered without the in-flight gauge', $socket));
    }

    private static function forbidden(string $path): self
    {
        return new self(null, null, \sprintf('unknown: user "%s" may not open %s (run as the relay\'s user or a member of its group)', RelayLocation::user(), $path));
    }
}
