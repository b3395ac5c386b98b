<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\RequestException;
use WarmHttp\Exception\ResponseTooLargeException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Internal\CurlErrors;
use WarmHttp\Internal\CurlInfo;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Exchange;
use WarmHttp\Internal\Failure;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\Psr7Exchange;
use WarmHttp\Internal\Transfer;

/**
 * Reads a relay_sync answer as the Client reads a direct one (Psr7Exchange), with two more
 * rules, so that the relay is transparent. An answer of the relay itself (X-WarmHttp-Error: a
 * destination's answer never carries X-WarmHttp-* headers) is an exception: the one a direct
 * call throws, by the kind the relay names (X-WarmHttp-Failure), with the same message; the
 * response's version is the destination's (X-WarmHttp-Version). And a relay that cannot be
 * reached is a NetworkException that names it.
 *
 * @internal
 *
 * @phpstan-import-type Info from CurlInfo
 */
final class SyncExchange implements Exchange
{
    private const VERSION = SyncRoute::VERSION_HEADER;

    private const ERROR = SyncRoute::ERROR_HEADER;

    private readonly Psr7Exchange $direct;

    public function __construct(private readonly RequestInterface $request, private readonly RelayAddress $relay)
    {
        $this->direct = new Psr7Exchange($request);
    }

    /** @param Info $info */
    public function response(Transfer $transfer, \CurlHandle $handle, array $info): ResponseInterface|ClientExceptionInterface
    {
        $outcome = $this->direct->response($transfer, $handle, $info);
        if (!$outcome instanceof ResponseInterface) {
            return $outcome;
        }
        $failure = $this->answer($outcome);
        if ($failure instanceof ResponseInterface) {
            return $failure;
        }
        $streamed = $transfer->streamedBody;
        if ($streamed !== null) {
            // The relay's one-line reason is never read: the failure says it all.
            CurlPool::get()->cancel($transfer, $failure);
            $streamed->take($streamed->buffered());
        }

        return $failure;
    }

    /**
     * The relay's answer as the caller sees it: the destination's response, or the exception for
     * an answer of the relay's own (X-WarmHttp-Error).
     */
    public function answer(ResponseInterface $answer): ResponseInterface|ClientExceptionInterface
    {
        if (!$answer->hasHeader(self::ERROR)) {
            return $answer->hasHeader(self::VERSION) ? self::withVersion($answer) : $answer;
        }

        return $this->relayFailure($answer);
    }

    /** The destination's HTTP version, which the relay names where it is not 1.1. */
    private static function withVersion(ResponseInterface $response): ResponseInterface
    {
        $version = $response->getHeaderLine(self::VERSION);

        return \in_array($version, ['1.0', '2'], true)
            ? $response->withoutHeader(self::VERSION)->withProtocolVersion($version)
            : $response->withoutHeader(self::VERSION);
    }

    public function failure(Transfer $transfer, Failure $failure): ClientExceptionInterface
    {
        return $this->failed($failure);
    }

    /** A failure of the hop to the relay: curl's error 7 there means the relay is not running. */
    public function failed(Failure $failure): ClientExceptionInterface
    {
        if ($failure->kind === FailureKind::Network && $failure->curlErrno === \CURLE_COULDNT_CONNECT) {
            return new NetworkException($this->request, $this->describe(\sprintf(
                'relay_sync: the relay at %s could not be reached; is it running? (%s)',
                $this->relay->streamAddress(),
                $failure->what,
            )), $failure->curlErrno);
        }
        $message = $this->describe($failure->what);

        return match ($failure->kind) {
            FailureKind::Timeout => new TimeoutException($this->request, $message, $failure->curlErrno),
            FailureKind::TooLarge => new ResponseTooLargeException($this->request, $message),
            FailureKind::Request => new RequestException($this->request, $message),
            FailureKind::Network => new NetworkException($this->request, $message, $failure->curlErrno),
        };
    }

    /** A relay that cannot be used: its socket is gone or untrusted, or nothing listens there. */
    public function unreachable(RelayUnreachable $e): ClientExceptionInterface
    {
        if ($e->reason === '') {
            return new NetworkException($this->request, $this->describe('relay_sync: ' . $e->getMessage()), 0, $e);
        }

        return $this->failed(CurlErrors::classify(\CURLE_COULDNT_CONNECT, 'Failed to connect to the relay: ' . $e->reason, [], null));
    }

    /** A relay_sync response that does not parse (ResponseParser's reason), as Psr7Exchange says it. */
    public function malformed(MalformedResponse $e): ClientExceptionInterface
    {
        return new NetworkException($this->request, $this->describe($e->getMessage()));
    }

    public function stopped(Transfer $transfer, string $why): ClientExceptionInterface
    {
        return $this->direct->stopped($transfer, $why);
    }

    /**
     * The exception for an answer of the relay's own: by the failure kind it names (SyncFailure),
     * else (the relay refused the request itself: token, limits) by its status.
     */
    private function relayFailure(ResponseInterface $answer): ClientExceptionInterface
    {
        [$kind, $errno] = explode(' ', $answer->getHeaderLine('X-WarmHttp-Failure') . ' 0');
        $detail = $answer->getHeaderLine('X-WarmHttp-Failure-Detail');
        if ($kind === '' || $detail === '') {
            return $this->refusedByRelay($answer);
        }
        $message = $this->describe($detail);

        return match ($kind) {
            'timeout' => new TimeoutException($this->request, $message, (int) $errno),
            'too-large' => new ResponseTooLargeException($this->request, $message),
            'request', 'refused' => new RequestException($this->request, $message),
            default => new NetworkException($this->request, $message, (int) $errno),
        };
    }

    private function refusedByRelay(ResponseInterface $answer): ClientExceptionInterface
    {
        $status = $answer->getStatusCode();
        $what = \sprintf('relay_sync: the relay at %s answered %d: %s', $this->relay->streamAddress(), $status, $answer->getHeaderLine(self::ERROR));

        // What the relay will not take (malformed, oversized, a refused destination) fails again if resent.
        return \in_array($status, [400, 403, 405, 413, 431], true)
            ? new RequestException($this->request, $this->describe($what))
            : new NetworkException($this->request, $this->describe($what));
    }

    /** "POST https://api.example.com/x failed: WHAT." as Psr7Exchange says it. */
    private function describe(string $what): string
    {
        return \sprintf('%s %s failed: %s.', $this->request->getMethod(), (string) $this->request->getUri(), $what);
    }
}
