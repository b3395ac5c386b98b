<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use Nyholm\Psr7\Request;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\UriInterface;
use WarmHttp\Internal\BodyBuffer;
use WarmHttp\Internal\CurlOptions;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Options;
use WarmHttp\Internal\RequestGuard;
use WarmHttp\Internal\Transfer;
use WarmHttp\Relay\Front\Router;
use WarmHttp\Relay\Guard\DestinationGuard;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Wire\RequestParser;

/**
 * Starts the relay's outgoing requests on the process-wide pool, each pinned with
 * CURLOPT_RESOLVE to the address the DestinationGuard checked. The public Client has no option
 * for that pin, so the relay builds its Transfers from the same internal pieces the Client uses.
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

    public function __construct(private readonly DestinationGuard $guard, ?string $cafile, float $timeout, ?int $maxHostConnections)
    {
        $options = Options::fromArray(array_filter([
            'cafile' => $cafile,
            'timeout' => $timeout,
            'connect_timeout' => min(10.0, $timeout),
            'follow_redirects' => false,
            'max_host_connections' => $maxHostConnections,
        ], static fn($v): bool => $v !== null));
        $this->clientCurl = CurlOptions::forClient($options);
        // Neither relay process forks, so the pool is taken once, not looked up (and its pid
        // checked) per request.
        $this->pool = CurlPool::get();
        $this->pool->limitConnections($maxHostConnections, null);
    }

    /**
     * @param list<array{string, string}> $headers
     *
     * @throws \WarmHttp\Exception\RequestException
     * @throws \InvalidArgumentException a header PSR-7 refuses
     */
    public static function request(string $method, string $uri, array $headers, string $body): RequestInterface
    {
        $grouped = [];
        foreach ($headers as [$name, $value]) {
            $grouped[$name][] = $value;
        }
        $request = new Request($method, $uri, $grouped, $body);
        RequestGuard::check($request);

        return $request;
    }

    /**
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function checkDestination(RequestInterface $request): string
    {
        return $this->guard->check($request->getUri()->getHost());
    }

    /**
     * Sync mode: the caller's request, forwarded; its response body is streamed (the transfer
     * settles once the head is in, and its body arrives in $transfer->streamedBody).
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function forward(RequestInterface $request): Transfer
    {
        $curl = CurlOptions::forRequest($request, $this->clientCurl, null, Transfer::isSafeToResend($request));

        return $this->launch(new Transfer($request, $this->pinned($request->getUri(), $curl), null, new BodyBuffer()));
    }

    /**
     * Sync mode, a GET or HEAD without a body, straight from the wire to curl options as a
     * delivery is: the PSR-7 request and RequestGuard round trip cost the relay 20-60 µs
     * per call (measured, warm and cold CPU). RequestParser has refused what RequestGuard
     * would (method and header names are tokens, no CR, LF or NUL in values) and the Router
     * takes only http(s) targets.
     *
     * @param list<array{string, string}> $headers filtered for upstream
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     * @throws \InvalidArgumentException a target PSR-7 refuses
     */
    public function forwardBodiless(string $method, string $target, array $headers): Transfer
    {
        // What the pool needs of the request: its target, for errors and the connection's key.
        $request = new Request($method, $target);
        $uri = $request->getUri();
        if ($uri->getHost() === '') {
            throw new \InvalidArgumentException(\sprintf('The target "%s" names no host.', substr($target, 0, 100)));
        }

        return $this->launch(new Transfer($request, $this->direct($request, $headers, ''), null, new BodyBuffer()));
    }

    /**
     * One delivery attempt of a spooled request (checked when it was accepted), carrying its
     * Idempotency-Key. Only the response's status and Retry-After are read.
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     * @throws \InvalidArgumentException a URI PSR-7 refuses
     */
    public function deliver(SpooledRequest $spooled): Transfer
    {
        // What the pool needs of the request: its target for errors and its key, which makes
        // it safe to resend. The body and headers go to curl directly.
        $request = new Request($spooled->method, $spooled->uri, ['Idempotency-Key' => $spooled->idempotencyKey]);
        $headers = [...$spooled->headers, ['Idempotency-Key', $spooled->idempotencyKey]];

        return $this->launch(new Transfer($request, $this->direct($request, $headers, $spooled->body), self::DELIVERY_RESPONSE_BYTES, discardBody: true));
    }

    /**
     * Curl options straight from headers and body, without a PSR-7 body round trip; $request
     * gives the method and target only.
     *
     * @param list<array{string, string}> $headers
     *
     * @return array<int, mixed>
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    private function direct(RequestInterface $request, array $headers, string $body): array
    {
        $uri = $request->getUri();
        $url = (string) ($uri->getFragment() === '' ? $uri : $uri->withFragment(''));

        return $this->pinned($uri, CurlOptions::forDelivery($request->getMethod(), $url, $headers, $body, $this->clientCurl));
    }

    private function launch(Transfer $transfer): Transfer
    {
        $this->pool->start($transfer);

        return $transfer;
    }

    /**
     * Pins the host to the address the guard checked (CURLOPT_RESOLVE): curl connects to
     * exactly that address, so DNS cannot answer differently in between (rebinding).
     *
     * @param array<int, mixed> $curl
     *
     * @return array<int, mixed>
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    private function pinned(UriInterface $uri, array $curl): array
    {
        $address = $this->guard->check($uri->getHost());
        if (filter_var(trim($uri->getHost(), '[]'), \FILTER_VALIDATE_IP) === false) {
            $port = $uri->getPort() ?? (strtolower($uri->getScheme()) === 'https' ? 443 : 80);
            $pinned = str_contains($address, ':') ? '[' . $address . ']' : $address;
            $curl[\CURLOPT_RESOLVE] = [\sprintf('%s:%d:%s', $uri->getHost(), $port, $pinned)];
        }

        return $curl;
    }
}
