<?php

declare(strict_types=1);

namespace WarmHttp\Observability;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\TransferStats;

/**
 * The response's status and headers are in. Buffered (the default), the body is in too and
 * RequestFinished follows at once; with `stream => true` the body is still arriving.
 */
final readonly class ResponseHeadersReceived implements RequestEvent
{
    public function __construct(
        public RequestInterface $request,
        public ResponseInterface $response,
        public ?TransferStats $stats,
    ) {}

    public function request(): RequestInterface
    {
        return $this->request;
    }
}
