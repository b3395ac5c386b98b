<?php

declare(strict_types=1);

/*
 * The parity suite's loopback origin, run as its own process by EchoOrigin::start().
 * Argument: a directory. It writes `port` there once listening, records every request it reads,
 * byte for byte, as one JSON line in `received.jsonl` (before answering, so a caller that has
 * seen an answer or a timeout always finds its request recorded), and answers from `script.json`
 * (written by EchoOrigin::script(), re-read per request): per path, a list of answers used in
 * turn (the last one repeats), each a list of parts [delay ms, base64 bytes, 'head'|'body'|'close'].
 * HEAD requests get no body parts. `Expect: 100-continue` is answered with 100 Continue;
 * `Connection: close` closes the connection after the answer.
 * No query string in the key: /a?x=1 and /a share an answer.
 */

final class EchoOriginServer
{
    /** @var array<int, resource> */
    private array $sockets = [];
    /** @var array<int, string> */
    private array $input = [];
    /** @var array<int, list<array{float, string, string}>> due time, bytes, kind */
    private array $output = [];
    /** @var array<int, bool> */
    private array $continued = [];
    /** @var array<string, int> answers used per path since the script's last version */
    private array $used = [];
    private string $version = '';
    private int $connections = 0;
    private int $sequence = 0;

    /** @param resource $server */
    public function __construct(private $server, private readonly string $dir) {}

    public function run(): never
    {
        while (true) {
            $read = [$this->server, ...array_values($this->sockets)];
            $write = [];
            foreach ($this->output as $id => $queue) {
                if ($queue !== [] && $queue[0][0] <= microtime(true)) {
                    $write[] = $this->sockets[$id];
                }
            }
            $except = null;
            $wait = $this->nextDue();
            @stream_select($read, $write, $except, 0, $wait);
            foreach ($read as $socket) {
                $socket === $this->server ? $this->accept() : $this->readFrom($socket);
            }
            $this->flushDue();
        }
    }

    private function nextDue(): int
    {
        $next = 0.2;
        foreach ($this->output as $queue) {
            if ($queue !== []) {
                $next = min($next, max(0.0, $queue[0][0] - microtime(true)));
            }
        }

        return (int) ($next * 1_000_000);
    }

    private function accept(): void
    {
        $socket = @stream_socket_accept($this->server, 0);
        if ($socket === false) {
            return;
        }
        stream_set_blocking($socket, false);
        $id = ++$this->connections;
        $this->sockets[$id] = $socket;
        $this->input[$id] = '';
        $this->output[$id] = [];
    }

    /** @param resource $socket */
    private function readFrom($socket): void
    {
        $id = (int) array_search($socket, $this->sockets, true);
        $bytes = @fread($socket, 1 << 20);
        if ($bytes === '' || $bytes === false) {
            if (feof($socket)) {
                $this->drop($id);
            }

            return;
        }
        $this->input[$id] .= $bytes;
        while ($this->takeRequest($id)) {
            // several pipelined requests may have arrived at once
        }
    }

    private function takeRequest(int $id): bool
    {
        $buffer = $this->input[$id];
        $end = strpos($buffer, "\r\n\r\n");
        if ($end === false) {
            return false;
        }
        $lines = explode("\r\n", substr($buffer, 0, $end));
        $line = array_shift($lines);
        $headers = self::headers($lines);
        $body = self::body(substr($buffer, $end + 4), $headers);
        if ($body === null) {
            $this->continueIfAsked($id, $headers);

            return false;
        }
        [$content, $consumed, $chunked] = $body;
        $this->input[$id] = substr($buffer, $end + 4 + $consumed);
        unset($this->continued[$id]);
        $method = explode(' ', $line)[0];
        $this->record($id, $line, $lines, $content, $chunked);
        $this->answer($id, $method, (string) parse_url(explode(' ', $line)[1] ?? '/', \PHP_URL_PATH));
        if (strtolower($headers['connection'] ?? '') === 'close') {
            // as a real server does; a reader of a body up to EOF (Guzzle's StreamHandler) waits for it
            $this->output[$id][] = [end($this->output[$id])[0] ?? microtime(true), '', 'close'];
        }

        return true;
    }

    /**
     * @param list<string> $lines
     *
     * @return array<string, string> lower-cased names, for framing only (the record keeps the raw lines)
     */
    private static function headers(array $lines): array
    {
        $headers = [];
        foreach ($lines as $raw) {
            [$name, $value] = explode(':', $raw, 2) + [1 => ''];
            $headers[strtolower(trim($name))] = trim($value);
        }

        return $headers;
    }

    /**
     * @param array<string, string> $headers
     *
     * @return array{string, int, bool}|null the body, the bytes it took on the wire, chunked; null while incomplete
     */
    private static function body(string $rest, array $headers): ?array
    {
        if (stripos($headers['transfer-encoding'] ?? '', 'chunked') !== false) {
            return self::chunked($rest);
        }
        $length = (int) ($headers['content-length'] ?? 0);

        return strlen($rest) < $length ? null : [substr($rest, 0, $length), $length, false];
    }

    /** @return array{string, int, bool}|null */
    private static function chunked(string $rest): ?array
    {
        $body = '';
        $at = 0;
        while (($eol = strpos($rest, "\r\n", $at)) !== false) {
            $size = hexdec(trim(explode(';', substr($rest, $at, $eol - $at))[0]));
            if ($size === 0) {
                $end = strpos($rest, "\r\n\r\n", $eol); // after any trailers

                return $end === false ? null : [$body, $end + 4, true];
            }
            if (strlen($rest) < $eol + 2 + $size + 2) {
                return null;
            }
            $body .= substr($rest, $eol + 2, (int) $size);
            $at = $eol + 2 + (int) $size + 2;
        }

        return null;
    }

    /** @param array<string, string> $headers */
    private function continueIfAsked(int $id, array $headers): void
    {
        if (strtolower($headers['expect'] ?? '') === '100-continue' && !isset($this->continued[$id])) {
            $this->continued[$id] = true;
            $this->output[$id][] = [microtime(true), "HTTP/1.1 100 Continue\r\n\r\n", 'head'];
        }
    }

    /** @param list<string> $lines */
    private function record(int $id, string $line, array $lines, string $body, bool $chunked): void
    {
        $record = [
            'seq' => ++$this->sequence,
            'connection' => $id,
            'line' => $line,
            'headers' => $lines,
            'body' => base64_encode($body),
            'chunked' => $chunked,
            'at' => microtime(true),
        ];
        file_put_contents($this->dir . '/received.jsonl', json_encode($record, \JSON_THROW_ON_ERROR) . "\n", \FILE_APPEND | \LOCK_EX);
    }

    private function answer(int $id, string $method, string $path): void
    {
        $due = microtime(true);
        foreach ($this->parts($path) as [$delay, $bytes, $kind]) {
            if ($kind === 'body' && $method === 'HEAD') {
                continue;
            }
            $due += $delay / 1000;
            $this->output[$id][] = [$due, base64_decode($bytes, true) ?: '', $kind];
        }
    }

    /** @return list<array{int|float, string, string}> */
    private function parts(string $path): array
    {
        $script = json_decode((string) @file_get_contents($this->dir . '/script.json'), true);
        $version = is_array($script) && is_string($script['version'] ?? null) ? $script['version'] : '';
        if ($version !== $this->version) {
            $this->version = $version;
            $this->used = [];
        }
        $paths = is_array($script) && is_array($script['paths'] ?? null) ? $script['paths'] : [];
        $answers = $paths[$path] ?? $paths['*'] ?? null;
        if (!is_array($answers) || $answers === []) {
            return [[0, base64_encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n"), 'head'], [0, base64_encode('ok'), 'body']];
        }
        $turn = $this->used[$path] ?? 0;
        $this->used[$path] = $turn + 1;

        return self::checked(array_values($answers)[min($turn, count($answers) - 1)]);
    }

    /** @return list<array{int|float, string, string}> */
    private static function checked(mixed $answer): array
    {
        $parts = [];
        foreach (is_array($answer) ? $answer : [] as $part) {
            if (is_array($part) && (is_int($part[0] ?? null) || is_float($part[0] ?? null)) && is_string($part[1] ?? null) && is_string($part[2] ?? null)) {
                $parts[] = [$part[0], $part[1], $part[2]];
            }
        }

        return $parts;
    }

    private function flushDue(): void
    {
        foreach ($this->output as $id => $queue) {
            while ($queue !== [] && $queue[0][0] <= microtime(true)) {
                [, $bytes, $kind] = array_shift($queue);
                if ($kind === 'close') {
                    $this->drop($id);

                    continue 2;
                }
                // Small answers: a blocking write is simpler than a partial-write queue.
                stream_set_blocking($this->sockets[$id], true);
                @fwrite($this->sockets[$id], $bytes);
                stream_set_blocking($this->sockets[$id], false);
            }
            $this->output[$id] = $queue;
        }
    }

    private function drop(int $id): void
    {
        if (isset($this->sockets[$id])) {
            @fclose($this->sockets[$id]);
        }
        unset($this->sockets[$id], $this->input[$id], $this->output[$id], $this->continued[$id]);
    }
}

$dir = $argv[1] ?? '';
$server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
if ($server === false || !is_dir($dir)) {
    fwrite(\STDERR, "echo-origin: cannot listen on 127.0.0.1 ({$errstr}) or no directory given\n");
    exit(1);
}
stream_set_blocking($server, false);
$name = (string) stream_socket_get_name($server, false);
file_put_contents($dir . '/received.jsonl', '');
file_put_contents($dir . '/port.tmp', substr($name, (int) strrpos($name, ':') + 1));
rename($dir . '/port.tmp', $dir . '/port');
(new EchoOriginServer($server, $dir))->run();
