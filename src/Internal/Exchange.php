<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * The seam between the pool and whoever started a transfer: the pool drives curl and reports
 * what happened, the exchange turns it into its caller's outcome. The Client's exchange
 * speaks PSR-7 and PSR-18 (Psr7Exchange); the relay's speaks its own wire.
 *
 * @internal
 *
 * @phpstan-import-type Info from CurlInfo
 */
interface Exchange
{
    /**
     * The response is in: whole (buffered or discarded sink), or its head (streamed sink, the
     * body still arriving in the transfer's BodyBuffer).
     *
     * @param Info $info
     */
    public function response(Transfer $transfer, \CurlHandle $handle, array $info): ResponseInterface|ClientExceptionInterface;

    /** curl failed, or the response could not be read. */
    public function failure(Transfer $transfer, Failure $failure): ClientExceptionInterface;

    /** The transfer was stopped before it finished (cancelled, its body abandoned, the pool reset). */
    public function stopped(Transfer $transfer, string $why): ClientExceptionInterface;
}
