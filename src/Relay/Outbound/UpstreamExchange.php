<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\CurlInfo;
use WarmHttp\Internal\DiscardedResponse;
use WarmHttp\Internal\Exchange;
use WarmHttp\Internal\Failure;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ResponseParser;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;

/**
 * The relay's side of the seam: no PSR-7 request. A delivery's outcome is its status and
 * Retry-After (the body went to /dev/null); a sync answer's is its head, the body being
 * streamed to the caller from the transfer's buffer; a failure is an UpstreamFailure.
 *
 * @internal
 *
 * @phpstan-import-type Info from CurlInfo
 */
final class UpstreamExchange implements Exchange
{
    /** @param Info $info */
    public function response(Transfer $transfer, \CurlHandle $handle, array $info): ResponseInterface|ClientExceptionInterface
    {
        if ($transfer->spec->sink === ResponseSink::Discarded) {
            return DiscardedResponse::from($handle, $info);
        }
        try {
            return ResponseParser::parse($transfer->head(), \strlen($transfer->head()), $info, new MemoryStream(''));
        } catch (MalformedResponse $e) {
            return new UpstreamFailure(FailureKind::Network, $transfer->spec->describe($e->getMessage()));
        }
    }

    public function failure(Transfer $transfer, Failure $failure): ClientExceptionInterface
    {
        return new UpstreamFailure($failure->kind, $transfer->spec->describe($failure->what), $failure->curlErrno);
    }

    public function stopped(Transfer $transfer, string $why): ClientExceptionInterface
    {
        return new UpstreamFailure(FailureKind::Network, $transfer->spec->describe($why));
    }
}
