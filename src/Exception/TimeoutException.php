<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

use Psr\Http\Client\NetworkExceptionInterface;
use Psr\Http\Message\RequestInterface;

/**
 * The `timeout` or `connect_timeout` option ran out before the response was complete.
 */
final class TimeoutException extends \RuntimeException implements NetworkExceptionInterface, WarmHttpException
{
    public function __construct(private readonly RequestInterface $request, string $message)
    {
        parent::__construct($message);
    }

    public function getRequest(): RequestInterface
    {
        return $this->request;
    }
}
