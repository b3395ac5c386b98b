<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Outbound;

use Psr\Log\LoggerInterface;
use Psr\Log\NullLogger;
use WarmHttp\Internal\ConnectionOwners;
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

    /** Distinct callers' settings kept (SyncSettings): one per app Client configuration, in practice a few. */
    private const SETTINGS_KEPT = 64;

    /** @var array<int, mixed> */
    private readonly array $clientCurl;

    private readonly CurlPool $pool;

    private readonly LoggerInterface $logger;

    /** @var array<string, array<int, mixed>> curl options by SyncSettings line and scheme */
    private array $callerCurl = [];

    /** Bases kept at most (UpstreamOptions::base): per settings, scheme, method and body presence. */
    private const BASES_KEPT = 256;

    /** @var array<string, array<int, mixed>> UpstreamOptions::base() by settings line, method, scheme and body presence */
    private array $bases = [];

    /** @var array<string, array{array<int, mixed>, ?string}> bodilessShape() by its key */
    private array $shapes = [];

    /** @param LoggerInterface|null $logger where a connection to an unchecked address is reported */
    public function __construct(
        private readonly DestinationGuard $guard,
        private readonly ?string $cafile,
        private readonly float $timeout,
        private readonly ?int $maxHostConnections,
        ?LoggerInterface $logger = null,
    ) {
        $this->clientCurl = $this->curlFor(['timeout' => $timeout, 'connect_timeout' => min(10.0, $timeout)]);
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
        return $this->guard->checkCanonical($target->host);
    }

    /**
     * Sync mode: the caller's request, forwarded; its response body is streamed (the transfer
     * settles once the head is in, and its body arrives in $transfer->streamedBody).
     *
     * @param list<array{string, string}> $headers  filtered for upstream
     * @param bool                        $guarded  checked and pinned by the destination guard; unguarded,
     *                                              curl resolves and connects as the caller's own Client would
     * @param string|null                 $settings the caller's SyncSettings line, if it sent one
     *
     * @throws RefusedDestination
     * @throws UnresolvableHost
     * @throws \InvalidArgumentException settings the relay cannot use
     */
    public function forward(string $method, Target $target, array $headers, string $body, bool $guarded = true, ?string $settings = null): Transfer
    {
        $address = $guarded ? $this->guard->checkCanonical($target->host) : null;
        // A safe method is resendable whatever its lines say: they are not looked through.
        $resendable = TransferSpec::isSafeToResend($method, false) || self::has($headers, 'Idempotency-Key');
        $shapeKey = 'relay ' . $method . ($resendable ? ' 1 ' : ' 0 ') . $target->scheme . ' ' . ($address ?? '-') . ' ' . $target->port . ($settings === null ? ' -' : ' =' . $settings);
        if ($body === '' && !UpstreamOptions::announcesBody($method)) {
            [$curl, $profile] = $this->shapes[$shapeKey] ?? $this->bodilessShape($shapeKey, $method, $target, $resendable, $address, $settings);
            $curl[\CURLOPT_URL] = $target->url;
            $curl[\CURLOPT_HTTPHEADER] = UpstreamOptions::headerLines($headers, false);
        } else {
            $curl = UpstreamOptions::onBase($this->base($method, $target, $body !== '', $settings), $method, $target->url, $headers, $body, $resendable);
            if ($address !== null) {
                $curl = UpstreamOptions::pinned($curl, $address, $target->port);
            }
            $profile = self::keeps($curl, $body) ? $shapeKey : null;
        }
        // With a profile, its options but the URL and the header lines are its shape's: a kept
        // easy handle gets only those (CurlPool::launch), not a curl_reset() and ~25 options again.
        $perTransfer = $profile === null ? [] : [\CURLOPT_HTTPHEADER => $curl[\CURLOPT_HTTPHEADER]];
        $transfer = $this->launch(new TransferSpec($method, $target->url, $target->scheme, $target->host, $target->port, $resendable, $curl, ResponseSink::Streamed, null, $profile, $perTransfer), $address);
        // Out now: the front's work after this (the answer's bookkeeping, the rest of its turn)
        // was ~7 k instructions between the caller's bytes and curl's send (callgrind marks).
        $this->pool->kick();

        return $transfer;
    }

    /**
     * Sync mode: a request with the spec forward() made for an earlier one of the same head,
     * unguarded and body-less (SyncForwarder keeps it): the same URL, header lines and options.
     */
    public function forwardAgain(TransferSpec $spec): Transfer
    {
        $transfer = $this->launch($spec, null);
        $this->pool->kick();

        return $transfer;
    }

    /**
     * The options of every body-less sync request of one shape (method, resendability, scheme,
     * pinned address, port, the caller's settings) but its URL and header lines, made once:
     * building them per request was ~17 k instructions of the front's path from a caller's
     * bytes to curl's send (callgrind, issue 16), paid on caches gone cold.
     *
     * @return array{array<int, mixed>, ?string} the options, and the pool profile they may keep (the shape's key)
     *
     * @throws \InvalidArgumentException settings the relay cannot use
     */
    private function bodilessShape(string $key, string $method, Target $target, bool $resendable, ?string $address, ?string $settings): array
    {
        $curl = UpstreamOptions::onBase($this->base($method, $target, false, $settings), $method, $target->url, [], '', $resendable);
        if ($address !== null) {
            $curl = UpstreamOptions::pinned($curl, $address, $target->port);
        }
        if (\count($this->shapes) >= self::BASES_KEPT) {
            unset($this->shapes[array_key_first($this->shapes)]);
        }

        return $this->shapes[$key] = [$curl, self::keeps($curl, '') ? $key : null];
    }

    /**
     * Whether an easy handle may keep these options for the next request of their shape: no
     * body, and no callback or identity of one request (CurlPool::launch sets a streamed
     * transfer's own callbacks per transfer).
     *
     * @param array<int, mixed> $curl
     */
    private static function keeps(array $curl, string $body): bool
    {
        return $body === '' && !isset($curl[\CURLOPT_READFUNCTION]) && !isset($curl[\CURLOPT_XFERINFOFUNCTION]) && !ConnectionOwners::concern($curl);
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
        $address = $this->guard->checkCanonical($target->host);
        $headers = [...$spooled->headers, ['Idempotency-Key', $spooled->idempotencyKey]];
        $curl = UpstreamOptions::build($spooled->method, $target->url, $headers, $spooled->body, true, $this->clientCurl);

        return $this->launch(new TransferSpec($spooled->method, $target->url, $target->scheme, $target->host, $target->port, true, UpstreamOptions::pinned($curl, $address, $target->port), ResponseSink::Discarded, self::DELIVERY_RESPONSE_BYTES), $address);
    }

    /**
     * The options every sync request with these settings, method and scheme starts from, made
     * once: per request only the URL, the body and the header lines are added (the Client
     * keeps its TransferSpecs per request shape the same way).
     *
     * @return array<int, mixed>
     *
     * @throws \InvalidArgumentException settings the relay cannot use
     */
    private function base(string $method, Target $target, bool $bodyGiven, ?string $settings): array
    {
        $key = $method . ($bodyGiven ? ' 1 ' : ' 0 ') . $target->scheme . ($settings === null ? ' -' : ' =' . $settings);
        if (isset($this->bases[$key])) {
            return $this->bases[$key];
        }
        $clientCurl = $settings === null ? $this->clientCurl : $this->callerCurl($settings, $target->scheme);
        if (\count($this->bases) >= self::BASES_KEPT) {
            array_shift($this->bases);
        }

        return $this->bases[$key] = UpstreamOptions::base($method, $target->url, $bodyGiven, $clientCurl);
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

    /**
     * The curl options of a caller's settings, made once per distinct settings line: libcurl
     * keeps connections made with a different verify or CA bundle apart by itself
     * (PoolPartitionTest), so callers with different settings never share one.
     *
     * @return array<int, mixed>
     *
     * @throws \InvalidArgumentException
     */
    private function callerCurl(string $settings, string $scheme): array
    {
        $key = $scheme . ' ' . $settings;
        if (isset($this->callerCurl[$key])) {
            return $this->callerCurl[$key];
        }
        [$options, $version] = SyncSettings::parse($settings, $this->timeout);
        $curl = $this->curlFor($options);
        if ($version !== null) {
            $curl = CurlOptions::version($version, $scheme === 'https') + $curl;
        }
        if (\count($this->callerCurl) >= self::SETTINGS_KEPT) {
            array_shift($this->callerCurl);
        }

        return $this->callerCurl[$key] = $curl;
    }

    /**
     * The relay's upstream curl options with these Client options over the relay's own.
     * The caller's answer goes on as the destination sent it (its Content-Encoding with it),
     * and a delivery's answer is discarded: nothing to decode, no Accept-Encoding to add.
     *
     * @param array<string, mixed> $options
     *
     * @return array<int, mixed>
     *
     * @throws \InvalidArgumentException an option the relay cannot use (a cafile it cannot read)
     */
    private function curlFor(array $options): array
    {
        $options += array_filter([
            'cafile' => $this->cafile,
            'max_host_connections' => $this->maxHostConnections,
        ], static fn($v): bool => $v !== null);

        return UpstreamOptions::direct() + CurlOptions::forClient(Options::fromArray(['decode_content' => false, 'follow_redirects' => false] + $options));
    }

    private function launch(TransferSpec $spec, ?string $address): Transfer
    {
        $transfer = new Transfer($spec, new UpstreamExchange($address, $this->logger));
        $this->pool->start($transfer);

        return $transfer;
    }
}
