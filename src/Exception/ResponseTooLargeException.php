<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

use Psr\Http\Client\RequestExceptionInterface;
use Psr\Http\Message\RequestInterface;

/**
 * The response body grew past the `max_response_bytes` option and was cut off.
 */
final class ResponseTooLargeException extends \RuntimeException implements RequestExceptionInterface, WarmHttpException
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
