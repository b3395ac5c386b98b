<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Message\RequestInterface;

/**
 * No usable response came back: refused, reset, truncated, malformed, TLS or DNS failure, or
 * a timeout (its subclass TimeoutException).
 *
 * Not final only so that TimeoutException can be one: treat it as final, it is not made to
 * be extended elsewhere.
 */
class NetworkException extends \RuntimeException implements NetworkExceptionInterface, WarmHttpException
{
    public function __construct(
        private readonly RequestInterface $request,
        string $message,
        private readonly int $curlErrno = 0,
        ?\Throwable $previous = null,
    ) {
        parent::__construct($message, $curlErrno, $previous);
    }

    public function getRequest(): RequestInterface
    {
        return $this->request;
    }

    /** The libcurl error number behind this failure (0 when WarmHttp itself detected it). */
    public function curlErrno(): int
    {
        return $this->curlErrno;
    }
}
