<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use WarmHttp\Internal\CurlInfo;
use WarmHttp\Internal\DiscardedResponse;
use WarmHttp\Internal\Exchange;
use WarmHttp\Internal\Failure;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Internal\MalformedResponse;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Relay\Wire\AnswerHead;
use WarmHttp\Response;

/**
 * The relay's side of the seam: no PSR-7 request. A delivery's outcome is its status and
 * Retry-After (the body went to /dev/null); a sync answer's is its head, the body being
 * streamed to the caller from the transfer's buffer; a failure is an UpstreamFailure.
 *
 * One per transfer: it knows the address the guard checked, and accepts no answer from a
 * connection to any other (a security event, logged; never a delivery). PHP 8.2 has no
 * CURLOPT_PREREQFUNCTION, so the earliest point is the response head: a sync answer's body has
 * not reached the caller yet, a delivery is not yet counted.
 *
 * @internal
 *
 * @phpstan-import-type Info from CurlInfo
 */
final class UpstreamExchange implements Exchange
{
    /*
     * Plain properties marked @readonly, not native readonly ones: one exchange is made per
     * request, and PHP 8.2 writes native readonly properties on the VM's slow path.
     */

    /**
     * The checked address as bytes: curl and the resolver may spell one IPv6 address differently.
     *
     * @readonly
     */
    private string|false $checkedBytes;

    /** @readonly */
    private LoggerInterface $logger;

    /** A sync answer's head for its caller, read from the bytes curl received and checked there. */
    private ?AnswerHead $answerHead = null;

    /**
     * @param string|null $checkedAddress the address the guard checked and curl was pinned to;
     *                                    null for a sync request the guard does not apply to (it
     *                                    follows its Client's own policy) and in the pool's unit tests
     */
    public function __construct(
        /** @readonly */
        private ?string $checkedAddress = null,
        ?LoggerInterface $logger = null,
    ) {
        $this->checkedBytes = $checkedAddress === null ? false : @inet_pton($checkedAddress);
        $this->logger = $logger ?? new NullLogger();
    }

    /** @param Info $info */
    public function response(Transfer $transfer, \CurlHandle $handle, array $info): ResponseInterface|ClientExceptionInterface
    {
        if ($this->checkedAddress !== null && !$this->connectedAsChecked($info['primary_ip'])) {
            return $this->wrongPeer($transfer, $info['primary_ip']);
        }
        if ($transfer->spec->sink === ResponseSink::Discarded) {
            return DiscardedResponse::from($handle, $info);
        }
        // The head is checked and filtered in one pass (AnswerHead::received), not parsed by
        // ResponseParser first: the same heads are refused, ~2 k instructions less per sync request (callgrind, front process).
        try {
            $head = AnswerHead::received($transfer->head());
        } catch (MalformedResponse $e) {
            return new UpstreamFailure(FailureKind::Network, $transfer->spec->describe($e->getMessage()));
        }
        $this->answerHead = $head;

        return Response::ofHead($head->status, $head->reason, $head->version, $head->fields, new MemoryStream(''), $info);
    }

    /**
     * The answer's head lines for a sync caller, filtered, straight from the bytes received;
     * null before a response, or when the transfer was settled otherwise.
     */
    public function answerHead(): ?AnswerHead
    {
        return $this->answerHead;
    }

    public function failure(Transfer $transfer, Failure $failure): ClientExceptionInterface
    {
        return new UpstreamFailure($failure->kind, $transfer->spec->describe($failure->what), $failure->curlErrno);
    }

    public function stopped(Transfer $transfer, string $why): ClientExceptionInterface
    {
        return new UpstreamFailure(FailureKind::Network, $transfer->spec->describe($why));
    }

    private function connectedAsChecked(string $primaryIp): bool
    {
        $peer = @inet_pton($primaryIp);

        return $peer !== false && $peer === $this->checkedBytes;
    }

    private function wrongPeer(Transfer $transfer, string $primaryIp): UpstreamFailure
    {
        $this->logger->critical('Security: an upstream connection reached another address than the destination guard checked; its answer was discarded', [
            'method' => $transfer->spec->method,
            'uri' => $transfer->spec->url,
            'checked_address' => (string) $this->checkedAddress,
            'connected_address' => $primaryIp,
        ]);

        return new UpstreamFailure(FailureKind::Request, $transfer->spec->describe(\sprintf(
            'curl connected to "%s", not to %s, the address the destination guard checked; the answer was discarded (security event)',
            $primaryIp,
            (string) $this->checkedAddress,
        )));
    }
}
