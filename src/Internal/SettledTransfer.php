<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;

/**
 * A transfer that never reaches curl, settled from birth: what FakeClient hands to
 * PendingResponse and Batch, so a fake answer travels the same code as a real one.
 *
 * @internal
 */
final class SettledTransfer
{
    private function __construct() {}

    public static function of(RequestInterface $request, ResponseInterface|ClientExceptionInterface $outcome): Transfer
    {
        $uri = $request->getUri();
        $spec = new TransferSpec($request->getMethod(), (string) $uri, $uri->getScheme(), $uri->getHost(), $uri->getPort() ?? 0, false, []);
        $transfer = new Transfer($spec, new Psr7Exchange($request));
        $transfer->settle($outcome);

        return $transfer;
    }
}
