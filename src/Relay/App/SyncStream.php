<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
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
 * @internal
 */
final class SyncStream
{
    public function __construct(
        private readonly RelayConnection $connection,
        private readonly SyncRequestBytes $bytes,
        private readonly float $timeout,
        private readonly float $connectTimeout,
        private readonly float $readTimeout,
        private readonly ?int $maxResponseBytes,
    ) {}

    /**
     * @throws HopFailure        no answer, or one that could not be read (the curl hop's failure)
     * @throws RelayUnreachable  no connection to the relay
     * @throws MalformedResponse an answer head that does not parse
     */
    public function send(RequestInterface $request, bool $resendable): Response
    {
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
        $reader = new SyncAnswerReader($stream, $clock);
        $head = $reader->head();
        $status = (int) substr($head, 9, 3);
        $bodyless = $request->getMethod() === 'HEAD' || $status === 204 || $status === 304;
        try {
            $body = new SyncBody($this->bytes->decodes($request) ? SyncBody::codings($head) : [], $this->maxResponseBytes);
            if (!$bodyless) {
                $body->announced($head);
            }
            $reader->body($head, $bodyless, $body->add(...));
        } catch (DecodingFailed $e) {
            throw HopFailure::curl($e->curlErrno(), $e->getMessage(), $this->maxResponseBytes);
        }
        if (!$reader->reusable()) {
            $this->connection->drop();
        }

        return ResponseParser::parse($head, \strlen($head), $this->info($head, $clock, $connection), new MemoryStream($body->contents()));
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
     *
     * @param array{bool,int} $connection
     *
     * @return array<string, int|string>
     */
    private function info(string $head, HopClock $clock, array $connection): array
    {
        $address = $this->connection->address;

        return [
            'header_size' => \strlen($head),
            'num_connects' => $connection[0] ? 1 : 0,
            'http_version' => \CURL_HTTP_VERSION_1_1,
            'namelookup_time_us' => 0,
            'connect_time_us' => $connection[1],
            'appconnect_time_us' => 0,
            'starttransfer_time_us' => $clock->firstByteUs(),
            'total_time_us' => $clock->elapsedUs(),
            // What libcurl 7.88 reports for a unix socket hop: the path, port 80.
            'primary_ip' => $address->socketPath ?? (string) $address->host,
            'primary_port' => $address->port ?? 80,
            'redirect_count' => 0,
        ];
    }
}
