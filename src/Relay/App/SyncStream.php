<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function class_exists;
use function fwrite;
use function preg_match;

use Psr\Http\Message\RequestInterface;

use function stream_get_meta_data;
use function stream_set_timeout;
use function stripos;
use function strpos;
use function substr;
use function substr_replace;
use function trim;

use WarmHttp\Internal\Decoding\DecodingFailed;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Response;

/**
 * relay_sync for a plain sendRequest(): the request goes to the relay over the process's kept
 * stream (RelayConnection) instead of a curl hop. Under PHP-FPM the curl hop cost every request
 * a curl multi, share and easy handle with ~22 options and a new unix socket the relay had to
 * accept (0.5 ms of the first call, issue 16); this writes the same bytes (SyncRequestBytes)
 * and reads the answer as curl would (SyncAnswerReader, SyncBody), with the same timeouts.
 *
 * A kept socket that died (the relay restarted) is found before writing on the first use in a
 * PHP request; if it dies under the request anyway, the request is sent again on a new
 * connection only when the relay cannot have forwarded it (nothing of the answer came) and it
 * is safe to send twice (an idempotent method or an Idempotency-Key), as libcurl retries.
 *
 * Private properties, not native readonly: made on every PHP-FPM request's relay_sync call,
 * and PHP 8.2 writes readonly ones on the VM's slow path (issue 16, callgrind).
 *
 * @internal
 */
final class SyncStream
{
    /** RFC 9110 9.2.2, as TransferSpec::isSafeToResend() (not loaded for it: one file less per FPM request). */
    private const IDEMPOTENT = ['GET' => true, 'HEAD' => true, 'OPTIONS' => true, 'PUT' => true, 'DELETE' => true, 'TRACE' => true];

    /** Whether this PHP request has loaded the classes that read an answer. */
    private static bool $answerClassesLoaded = false;

    /** Whether the last answer is the relay's own (SyncRoute::ERROR_HEADER), not a destination's. */
    private bool $relaysOwn = false;

    public function __construct(
        private RelayConnection $connection,
        private SyncRequestBytes $bytes,
        private float $timeout,
        private float $connectTimeout,
        private float $readTimeout,
        private ?int $maxResponseBytes,
    ) {}

    /**
     * @throws HopFailure        no answer, or one that could not be read (the curl hop's failure)
     * @throws RelayUnreachable  no connection to the relay
     * @throws MalformedResponse an answer head that does not parse
     */
    public function send(RequestInterface $request): Response
    {
        $resendable = isset(self::IDEMPOTENT[$request->getMethod()]) || $request->hasHeader('Idempotency-Key');
        $wire = $this->bytes->encode($request);
        $clock = new HopClock($this->timeout, $this->readTimeout);
        for ($attempt = 1; ; ++$attempt) {
            // A request that must not go twice checks the kept socket before every write.
            $stream = $this->connection->take($this->connectTimeout, recheck: !$resendable);
            $opened = $this->connection->opened();
            $connectUs = $opened ? $clock->elapsedUs() : 0;
            try {
                return $this->exchange($stream, $wire, $request, $clock, [$opened, $connectUs]);
            } catch (HopFailure $e) {
                $this->connection->drop();
                if ($attempt > 1 || $opened || !$e->unanswered) {
                    throw $e;
                }
                if (!$resendable) {
                    throw HopFailure::curl(65, 'necessary data rewind wasn\'t possible'); // CURLE_SEND_FAIL_REWIND
                }
            }
        }
    }

    /** Whether the answer send() returned last is the relay's own (it carries SyncRoute::ERROR_HEADER). */
    public function answeredByRelay(): bool
    {
        return $this->relaysOwn;
    }

    /**
     * @param resource        $stream
     * @param array{bool,int} $connection whether it was opened for this request, and when
     *
     * @throws HopFailure
     * @throws MalformedResponse
     */
    private function exchange($stream, string $wire, RequestInterface $request, HopClock $clock, array $connection): Response
    {
        $this->write($stream, $wire, $clock);
        // While the relay forwards the request: off the first call's critical path, where the
        // CPU comes back cold from the wait (each step after the answer ~5-30 µs, hrtime marks).
        $this->connection->claim();
        self::loadAnswerClasses();
        $headRequest = $request->getMethod() === 'HEAD';
        $decodes = $this->bytes->decodes($request);
        $info = $this->info($connection);
        $reader = new SyncAnswerReader($stream, $clock);
        $head = $reader->head();
        $body = $this->body($reader, $head, $headRequest, $decodes);
        if ($reader->reusable()) {
            $this->connection->settle();
        } else {
            $this->connection->drop();
        }

        // Read on the bytes: asking the Response would split all its header lines (~5 k instructions).
        $this->relaysOwn = stripos($head, "\r\n" . SyncRoute::ERROR_HEADER . ':') !== false;
        $destinationHead = self::destinationHead($head);
        $info['header_size'] = \strlen($head);
        $info['starttransfer_time_us'] = $clock->firstByteUs();
        // The transfer ends with its last byte, as curl's total time does.
        $info['total_time_us'] = $clock->lastByteUs();
        $contents = new MemoryStream($body);

        // A head as the relay writes it is read by one regex; ResponseParser (not loaded for it) reads or refuses any other.
        return Response::ofRelayHead($destinationHead, $info, $contents) ?? ResponseParser::parse($destinationHead, \strlen($destinationHead), $info, $contents);
    }

    /**
     * The answer's body as the curl hop collects it (SyncBody). Without `max_response_bytes` and
     * with nothing to decode (most answers) it is the bytes as they come: SyncBody is then not
     * loaded (~4 k instructions of a PHP-FPM request's first call, callgrind).
     *
     * @throws HopFailure
     */
    private function body(SyncAnswerReader $reader, string $head, bool $headRequest, bool $decodes): string
    {
        $status = (int) substr($head, 9, 3);
        $bodyless = $headRequest || $status === 204 || $status === 304;
        if ($this->maxResponseBytes === null && (!$decodes || stripos($head, "\r\ncontent-encoding:") === false)) {
            return $reader->bodyBytes($head, $bodyless);
        }
        try {
            $body = new SyncBody($decodes ? SyncBody::codings($head) : [], $this->maxResponseBytes);
            if ($status !== 204 && $status !== 304) {
                $body->announced($head); // a HEAD's too, as libcurl 7.88 checks it
            }
            $reader->body($head, $bodyless, $body->add(...));
        } catch (DecodingFailed $e) {
            throw HopFailure::curl($e->curlErrno(), $e->getMessage(), $this->maxResponseBytes);
        }

        return $body->contents();
    }

    /**
     * The head with the destination's HTTP version in its status line, where the relay names
     * one other than 1.1 (X-WarmHttp-Version): what SyncExchange::answer() makes of it, done
     * on the bytes, so a response from an HTTP/2 destination needs no nyholm copy.
     */
    private static function destinationHead(string $head): string
    {
        // The line as the relay writes it for an HTTP/2 destination (StreamedAnswer), cut with
        // the functions the answer's reading already ran: each other one (trim(), in_array(),
        // substr_replace()) costs ~2 µs of a PHP-FPM request's first call on a CPU come back
        // cold from the wait (hrtime, 40 calls after a 20 ms sleep each).
        $line = "\r\n" . SyncRoute::VERSION_HEADER . ": 2\r\n";
        $at = strpos($head, $line);
        if ($at !== false) {
            $space = (int) strpos($head, ' ');

            return 'HTTP/2' . substr($head, $space, $at - $space) . substr($head, $at + \strlen($line) - 2);
        }
        $at = stripos($head, "\r\n" . SyncRoute::VERSION_HEADER . ':');
        if ($at === false) {
            return $head;
        }
        // The line as /\r\nX-WarmHttp-Version:[ \t]*([^\r]*)\r\n/i matches it, found without the
        // regex where it ends in CRLF (always, in a head the relay wrote): ~2 k instructions less.
        $valueAt = $at + \strlen(SyncRoute::VERSION_HEADER) + 3;
        $end = strpos($head, "\r", $valueAt);
        if ($end !== false && ($head[$end + 1] ?? '') === "\n") {
            $version = trim(substr($head, $valueAt, $end - $valueAt));
        } elseif (preg_match('/\r\n' . SyncRoute::VERSION_HEADER . ':[ \t]*([^\r]*)\r\n/i', $head, $m, \PREG_OFFSET_CAPTURE) === 1) {
            [$at, $end] = [$m[0][1], $m[0][1] + \strlen($m[0][0]) - 2];
            $version = trim($m[1][0]);
        } else {
            return $head;
        }
        $head = substr_replace($head, "\r\n", $at, $end + 2 - $at);

        return \in_array($version, ['1.0', '2'], true) ? 'HTTP/' . $version . substr($head, (int) strpos($head, ' ')) : $head;
    }

    /**
     * Under PHP-FPM every request autoloads these anew: done while the relay forwards the request
     * (it runs on another core), not after its answer came, on a CPU gone cold while it waited
     * (as CurlPool::loadSettleClasses()). Nothing to do where opcache.preload holds them.
     * ParsedResponse is not among them: a response whose headers are never asked for (the
     * relay's own answers are told by their bytes) does not load it; nor is ResponseParser, which
     * reads only the heads Response::ofRelayHead() does not.
     */
    private static function loadAnswerClasses(): void
    {
        if (self::$answerClassesLoaded) {
            return;
        }
        self::$answerClassesLoaded = true;
        class_exists(SyncAnswerReader::class);
        class_exists(Response::class);
        class_exists(MemoryStream::class);
    }

    /**
     * @param resource $stream
     *
     * @throws HopFailure
     */
    private function write($stream, string $wire, HopClock $clock): void
    {
        [$seconds, $micro] = $clock->wait();
        stream_set_timeout($stream, $seconds, $micro);
        $written = @fwrite($stream, $wire);
        if ($written !== \strlen($wire)) {
            if (stream_get_meta_data($stream)['timed_out']) {
                throw new HopFailure($clock->failure());
            }
            // Nothing of the answer came: on a kept socket the relay is gone (a restart).
            throw HopFailure::curl(\CURLE_SEND_ERROR, 'Send failure: Broken pipe', null, true);
        }
        $clock->sent();
    }

    /**
     * What curl_getinfo() tells of the curl hop, for the response's stats(): the hop to the relay.
     * Made before the answer comes; exchange() adds the head's size and the answer's times.
     *
     * @param array{bool,int} $connection
     *
     * @return array<string, int|string>
     */
    private function info(array $connection): array
    {
        $address = $this->connection->address;

        return [
            'header_size' => 0,
            'num_connects' => $connection[0] ? 1 : 0,
            'http_version' => \CURL_HTTP_VERSION_1_1,
            'namelookup_time_us' => 0,
            'connect_time_us' => $connection[1],
            'appconnect_time_us' => 0,
            'starttransfer_time_us' => 0,
            'total_time_us' => 0,
            // What libcurl 7.88 reports for a unix socket hop: the path, port 80.
            'primary_ip' => $address->socketPath ?? (string) $address->host,
            'primary_port' => $address->port ?? 80,
            'redirect_count' => 0,
        ];
    }
}
