<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

use Psr\Http\Client\RequestExceptionInterface;
use Psr\Http\Message\RequestInterface;

/**
 * The request itself is unusable (bad method, header, URI or scheme): nothing was sent.
 */
final class RequestException extends \InvalidArgumentException implements RequestExceptionInterface, WarmHttpException
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
