<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Exception;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use Psr\Http\Client\NetworkExceptionInterface;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Exception\TimeoutException;
use WarmHttp\Exception\WarmHttpException;
use WarmHttp\Internal\Failure;
use WarmHttp\Internal\FailureKind;
use WarmHttp\Internal\Psr7Exchange;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;

final class TimeoutExceptionTest extends TestCase
{
    public function testATimeoutIsCaughtAsANetworkExceptionAndByPsr18sInterface(): void
    {
        $request = new Request('GET', 'http://example.com/');
        $timeout = new TimeoutException($request, 'GET http://example.com/ failed: timed out.', \CURLE_OPERATION_TIMEDOUT);

        self::assertInstanceOf(NetworkException::class, $timeout);
        self::assertInstanceOf(NetworkExceptionInterface::class, $timeout);
        self::assertInstanceOf(WarmHttpException::class, $timeout);
        self::assertSame($request, $timeout->getRequest());
        self::assertSame(\CURLE_OPERATION_TIMEDOUT, $timeout->curlErrno());
    }

    public function testTheClientsTimeoutCarriesCurlsErrorNumber(): void
    {
        $request = new Request('GET', 'http://example.com/');
        $exchange = new Psr7Exchange($request);
        $transfer = new Transfer(TransferSpec::of('GET', 'http://example.com/', true, [], ResponseSink::Buffered), $exchange);

        $failure = $exchange->failure($transfer, new Failure(FailureKind::Timeout, 'timed out', \CURLE_OPERATION_TIMEDOUT));

        self::assertInstanceOf(TimeoutException::class, $failure);
        self::assertSame(\CURLE_OPERATION_TIMEDOUT, $failure->curlErrno());
        self::assertSame('GET http://example.com/ failed: timed out.', $failure->getMessage());
    }
}
