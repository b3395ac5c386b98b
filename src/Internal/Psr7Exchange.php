<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\RequestException;
use WarmHttp\Exception\ResponseTooLargeException;
use WarmHttp\Exception\TimeoutException;

/**
 * The Client's side of the seam: one PSR-7 request in, a PSR-7 response (with stats) or the
 * PSR-18 exception that carries the request out.
 *
 * @internal
 *
 * @phpstan-import-type Info from CurlInfo
 */
final class Psr7Exchange implements Exchange
{
    /**
     * Typed by its docblock only: one exchange is made per request, and PHP 8.2 without
     * opcache resolves a property's interface type by name on every write (~230 of the ~840
     * instructions of making one, callgrind, issue 16).
     *
     * @var RequestInterface
     */
    private $request;

    public function __construct(RequestInterface $request)
    {
        $this->request = $request;
    }

    /**
     * The pool's description of a PSR-7 request, for the Client.
     *
     * @param array<int, mixed> $curlOptions from CurlOptions::forRequest (CURLOPT_URL: the URL without fragment;
     *                                       through the relay, CURLOPT_REQUEST_TARGET holds it)
     */
    public static function spec(RequestInterface $request, bool $resendable, array $curlOptions, bool $stream, ?int $maxResponseBytes, ?string $profile = null): TransferSpec
    {
        $uri = $request->getUri();
        $scheme = $uri->getScheme();
        $url = $curlOptions[\CURLOPT_REQUEST_TARGET] ?? $curlOptions[\CURLOPT_URL];

        return new TransferSpec(
            $request->getMethod(),
            \is_string($url) ? $url : '',
            $scheme,
            $uri->getHost(),
            $uri->getPort() ?? TransferSpec::defaultPort($scheme),
            $resendable,
            $curlOptions,
            $stream ? ResponseSink::Streamed : ResponseSink::Buffered,
            $maxResponseBytes,
            $profile,
        );
    }

    public static function isSafeToResend(RequestInterface $request): bool
    {
        return TransferSpec::isSafeToResend($request->getMethod(), $request->hasHeader('Idempotency-Key'));
    }

    /** @param Info $info */
    public function response(Transfer $transfer, \CurlHandle $handle, array $info): ResponseInterface|ClientExceptionInterface
    {
        if ($transfer->streamedBody !== null) {
            return $this->streamed($transfer, $transfer->streamedBody, $handle, $info);
        }
        try {
            if ($transfer->cappedBody === null && $transfer->spec->method !== 'HEAD') {
                // Most responses: checked first, without the calls below (~400 instructions, callgrind)
                return ResponseParser::parse((string) curl_multi_getcontent($handle), $info['header_size'], $info);
            }
            if ($transfer->stoppedAtHead()) {
                return ResponseParser::parse($transfer->head(), \strlen($transfer->head()), $info, new MemoryStream(''));
            }
            $raw = $transfer->cappedBody?->contents() ?? (string) curl_multi_getcontent($handle);

            return ResponseParser::parse($raw, $info['header_size'], $info);
        } catch (MalformedResponse $e) {
            return new NetworkException($this->request, $this->describe($e->getMessage()));
        }
    }

    /**
     * What curl buffered of a response (header blocks, then the body), for CurlPool::sendAlone().
     *
     * @param Info $info
     */
    public static function buffered(RequestInterface $request, string $raw, array $info): ResponseInterface|ClientExceptionInterface
    {
        try {
            return ResponseParser::parse($raw, $info['header_size'], $info);
        } catch (MalformedResponse $e) {
            return (new self($request))->malformed($e);
        }
    }

    private function malformed(MalformedResponse $e): NetworkException
    {
        return new NetworkException($this->request, $this->describe($e->getMessage()));
    }

    /**
     * A refused head stops the transfer at once, with the reason it was refused: curl would
     * otherwise go on receiving a body nobody can read, and the dropped body stream would
     * report it as "closed before it was read".
     *
     * @param Info $info
     */
    private function streamed(Transfer $transfer, BodyBuffer $buffer, \CurlHandle $handle, array $info): ResponseInterface|ClientExceptionInterface
    {
        $length = curl_getinfo($handle, \CURLINFO_CONTENT_LENGTH_DOWNLOAD_T);
        $body = new PullStream($buffer, $transfer, $length >= 0 ? $length : null);
        try {
            return ResponseParser::parse($transfer->head(), \strlen($transfer->head()), $info, $body);
        } catch (MalformedResponse $e) {
            $refused = new NetworkException($this->request, $this->describe($e->getMessage()));
            CurlPool::get()->cancel($transfer, $refused);
            $buffer->take($buffer->buffered()); // drained: the dropped stream has nothing left to stop

            return $refused;
        }
    }

    public function failure(Transfer $transfer, Failure $failure): ClientExceptionInterface
    {
        $message = $this->describe($failure->what);

        return match ($failure->kind) {
            FailureKind::Timeout => new TimeoutException($this->request, $message, $failure->curlErrno),
            FailureKind::TooLarge => new ResponseTooLargeException($this->request, $message),
            FailureKind::Request => new RequestException($this->request, $message),
            FailureKind::Network => new NetworkException($this->request, $message, $failure->curlErrno),
        };
    }

    public function stopped(Transfer $transfer, string $why): ClientExceptionInterface
    {
        return new NetworkException($this->request, $this->describe($why));
    }

    /** "POST https://api.example.com/x failed: WHAT." — how every failure message starts. */
    private function describe(string $what): string
    {
        return \sprintf('%s %s failed: %s.', $this->request->getMethod(), (string) $this->request->getUri(), $what);
    }
}
