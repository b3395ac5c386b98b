<?php

declare(strict_types=1);

namespace WarmHttp\Observability;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\TransferStats;

/**
 * The request ended with a response, whatever its status: where the time went is in $stats
 * (null only for a response that did not come from the pool).
 */
final readonly class RequestFinished implements RequestEvent
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
