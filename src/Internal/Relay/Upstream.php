<?php

declare(strict_types=1);

namespace WarmHttp\Internal\Relay;

use Nyholm\Psr7\Request;
use Psr\Http\Message\RequestInterface;
use WarmHttp\Internal\CurlOptions;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\Options;
use WarmHttp\Internal\RequestGuard;
use WarmHttp\Internal\Transfer;

/**
 * Starts the relay's outgoing requests on the process-wide pool, each pinned with
 * CURLOPT_RESOLVE to the address the DestinationGuard checked. The public Client has no option
 * for that pin, so the relay builds its Transfers from the same internal pieces the Client uses.
 *
 * @internal
 */
final class Upstream
{
    /** Deliveries read at most this much of a response: only its status matters. */
    private const DELIVERY_RESPONSE_BYTES = 1048576;

    /** @var array<int, mixed> */
    private readonly array $clientCurl;

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
        CurlPool::get()->limitConnections($maxHostConnections, null);
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
     * @param bool $delivery async delivery (response body capped) rather than sync forwarding
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     */
    public function start(RequestInterface $request, bool $delivery): Transfer
    {
        $address = $this->checkDestination($request);
        $curl = CurlOptions::forRequest($request, $this->clientCurl, null, Transfer::isSafeToResend($request));
        $uri = $request->getUri();
        if (filter_var(trim($uri->getHost(), '[]'), \FILTER_VALIDATE_IP) === false) {
            $port = $uri->getPort() ?? (strtolower($uri->getScheme()) === 'https' ? 443 : 80);
            $pinned = str_contains($address, ':') ? '[' . $address . ']' : $address;
            $curl[\CURLOPT_RESOLVE] = [\sprintf('%s:%d:%s', $uri->getHost(), $port, $pinned)];
        }
        $transfer = new Transfer($request, $curl, $delivery ? self::DELIVERY_RESPONSE_BYTES : null);
        CurlPool::get()->start($transfer);

        return $transfer;
    }
}
