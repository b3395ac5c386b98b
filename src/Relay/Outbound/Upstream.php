<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use WarmHttp\Internal\CurlOptions;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Options;
use WarmHttp\Internal\ResponseSink;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\Guard\DestinationGuard;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Wire\Target;

/**
 * Starts the relay's outgoing requests on the process-wide pool, each pinned to the address the
 * DestinationGuard checked, whatever name curl derives from the URL, and never through a proxy.
 * The public Client has no option for that pin, so the relay builds its own TransferSpecs,
 * straight from what it received: no PSR-7 request on the way, and an UpstreamExchange that
 * refuses an answer from any other address reads the outcome.
 *
 * @internal
 */
final class Upstream
{
    /** A delivery's response is discarded: one announced larger than this is not even read. */
    private const DELIVERY_RESPONSE_BYTES = 1048576;

    /** @var array<int, mixed> */
    private readonly array $clientCurl;

    private readonly CurlPool $pool;

    private readonly LoggerInterface $logger;

    /** @param LoggerInterface|null $logger where a connection to an unchecked address is reported */
    public function __construct(private readonly DestinationGuard $guard, ?string $cafile, float $timeout, ?int $maxHostConnections, ?LoggerInterface $logger = null)
    {
        // The caller's answer goes on as the destination sent it (its Content-Encoding with it),
        // and a delivery's answer is discarded: nothing to decode, no Accept-Encoding to add.
        $options = Options::fromArray(['decode_content' => false] + array_filter([
            'cafile' => $cafile,
            'timeout' => $timeout,
            'connect_timeout' => min(10.0, $timeout),
            'follow_redirects' => false,
            'max_host_connections' => $maxHostConnections,
        ], static fn($v): bool => $v !== null));
        $this->clientCurl = UpstreamOptions::direct() + CurlOptions::forClient($options);
        // Neither relay process forks, so the pool is taken once, not looked up (and its pid
        // checked) per request.
        $this->pool = CurlPool::get();
        $this->pool->limitConnections($maxHostConnections, null);
        $this->logger = $logger ?? new NullLogger();
    }

    /**
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function checkDestination(Target $target): string
    {
        return $this->guard->check($target->host);
    }

    /**
     * Sync mode: the caller's request, forwarded; its response body is streamed (the transfer
     * settles once the head is in, and its body arrives in $transfer->streamedBody).
     *
     * @param list<array{string, string}> $headers filtered for upstream
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function forward(string $method, Target $target, array $headers, string $body): Transfer
    {
        $address = $this->guard->check($target->host);
        $resendable = TransferSpec::isSafeToResend($method, self::has($headers, 'Idempotency-Key'));
        $curl = UpstreamOptions::build($method, $target->url, $headers, $body, $resendable, $this->clientCurl);

        return $this->launch(new TransferSpec($method, $target->url, $target->scheme, $target->host, $target->port, $resendable, UpstreamOptions::pinned($curl, $address, $target->port), ResponseSink::Streamed), $address);
    }

    /**
     * One delivery attempt of a spooled request (checked when it was accepted), carrying its
     * Idempotency-Key, so it may be re-sent. Only the response's status and Retry-After are read.
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     * @throws \InvalidArgumentException a target that does not parse
     */
    public function deliver(SpooledRequest $spooled): Transfer
    {
        $target = Target::parse($spooled->uri);
        $address = $this->guard->check($target->host);
        $headers = [...$spooled->headers, ['Idempotency-Key', $spooled->idempotencyKey]];
        $curl = UpstreamOptions::build($spooled->method, $target->url, $headers, $spooled->body, true, $this->clientCurl);

        return $this->launch(new TransferSpec($spooled->method, $target->url, $target->scheme, $target->host, $target->port, true, UpstreamOptions::pinned($curl, $address, $target->port), ResponseSink::Discarded, self::DELIVERY_RESPONSE_BYTES), $address);
    }

    /** @param list<array{string, string}> $headers */
    private static function has(array $headers, string $name): bool
    {
        foreach ($headers as [$header]) {
            if (strcasecmp($header, $name) === 0) {
                return true;
            }
        }

        return false;
    }

    private function launch(TransferSpec $spec, string $address): Transfer
    {
        $transfer = new Transfer($spec, new UpstreamExchange($address, $this->logger));
        $this->pool->start($transfer);

        return $transfer;
    }
}
