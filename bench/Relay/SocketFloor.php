<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * The least any hand-off to another process can cost on this machine: a PHP process that, like
 * the relay front, waits in stream_select and answers each message on a unix socket
 * (socket-floor.php), while the caller writes a dispatch-sized message and waits for the
 * answer. No relay, no journal, no parsing: only the two wake-ups and four system calls.
 *
 * @internal benchmark tooling
 */
final class SocketFloor
{
    /** strlen("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"), what socket-floor.php answers */
    private const ANSWER_BYTES = 44;

    public function roundTrips(int $count, int $messageBytes): Latencies
    {
        $pair = stream_socket_pair(\STREAM_PF_UNIX, \STREAM_SOCK_STREAM, 0);
        if ($pair === false) {
            throw new \RuntimeException('Cannot create a unix socket pair for the socket floor.');
        }
        [$caller, $answering] = $pair;
        // A process of its own, not a fork: a forked child would run the parent's destructors
        // (the shared rig's) on exit.
        $process = proc_open([\PHP_BINARY, __DIR__ . '/socket-floor.php', (string) $messageBytes], [3 => $answering], $pipes);
        fclose($answering);
        if ($process === false) {
            throw new \RuntimeException('Cannot start the socket floor\'s answering process.');
        }
        try {
            return Latencies::of(self::time($caller, $count, str_repeat('x', $messageBytes)));
        } finally {
            fclose($caller);
            // Ended by signal, not by EOF: it may have inherited other descriptors of this
            // process, the caller's end among them (PHP does not open sockets close-on-exec).
            proc_terminate($process);
            proc_close($process);
        }
    }

    /**
     * @param resource $caller
     *
     * @return list<float> µs per round trip
     */
    private static function time($caller, int $count, string $message): array
    {
        $samples = [];
        for ($i = 0; $i < $count; ++$i) {
            $start = hrtime(true);
            fwrite($caller, $message);
            for ($answer = ''; \strlen($answer) < self::ANSWER_BYTES;) {
                $chunk = fread($caller, 8192);
                if ($chunk === false || ($chunk === '' && feof($caller))) {
                    throw new \RuntimeException('The socket floor\'s answering process went away.');
                }
                $answer .= $chunk;
            }
            $samples[] = (hrtime(true) - $start) / 1e3;
        }

        return $samples;
    }
}
