<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Internal\Scheduler;
use WarmHttp\Internal\Transfer;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Outbound\Upstream;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Wire\WireEncoder;
use WarmHttp\Relay\Worker\Decision;
use WarmHttp\Relay\Worker\RetryPolicy;

/**
 * Sends fallback entries: first offered to the relay again (its 202 means it took the entry
 * over, durably), else straight to the destination through the relay's own outbound path
 * (Upstream: the DestinationGuard under the entry's policy, the connection pinned with
 * CURLOPT_RESOLVE to the checked address). The outcome is judged by the relay's RetryPolicy.
 *
 * @internal
 */
final class FallbackSender
{
    /** Attempts before an entry is dead-lettered; with the policy's backoff, hours of trying. */
    public const MAX_ATTEMPTS = 30;

    public const MAX_AGE_SECONDS = 86400.0;

    /** The longest backoff between two attempts. */
    public const CAP_SECONDS = DeferredSends::RETRY_CAP_SECONDS;

    private readonly RetryPolicy $policy;

    /** @var array<string, Upstream> policy key => its outbound path, with the guard's DNS cache */
    private array $upstreams = [];

    /** @var array<string, RelaySocket> */
    private array $relays = [];

    public function __construct()
    {
        $this->policy = new RetryPolicy(1.0, self::CAP_SECONDS, self::MAX_AGE_SECONDS, self::MAX_ATTEMPTS);
    }

    /**
     * Sends them all at once on the pool and returns each one's decision, in order. A relay
     * that fails once is not asked again in this call: the rest go direct without waiting.
     *
     * @param list<FallbackEntry> $entries
     *
     * @return list<Decision>
     */
    public function send(array $entries): array
    {
        $pending = [];
        $downRelays = [];
        foreach ($entries as $i => $entry) {
            if ($entry->relay !== null && !isset($downRelays[$entry->relay])) {
                $taken = $this->offerToRelay($entry, $entry->relay);
                if ($taken !== null) {
                    $pending[$i] = $taken;
                    continue;
                }
                $downRelays[$entry->relay] = true;
            }
            $pending[$i] = $this->start($entry);
        }

        return array_map(fn(Decision|Transfer $p, int $i): Decision => $p instanceof Transfer ? $this->settle($entries[$i]->request, $p) : $p, $pending, array_keys($pending));
    }

    /** The relay's decision when it answered for the entry, null when it did not take it. */
    private function offerToRelay(FallbackEntry $entry, string $relay): ?Decision
    {
        $r = $entry->request;
        $wire = WireEncoder::encodeParts($r->method, $r->uri, [...$r->headers, ['Idempotency-Key', $r->idempotencyKey]], $r->body, 'async', $entry->token);
        try {
            [$status, $error] = $this->relaySocket($relay)->exchange($wire);
        } catch (RelayUnreachable|\InvalidArgumentException) {
            return null;
        }

        return match ($status) {
            202 => Decision::delivered('taken over by the relay'),
            403 => Decision::dead('the relay refused the destination: ' . $error),
            default => null,
        };
    }

    private function start(FallbackEntry $entry): Decision|Transfer
    {
        $r = $entry->request;
        try {
            return $this->upstream($entry->policy)->deliver($r);
        } catch (UnresolvableHost $e) {
            return $this->policy->later($r, $r->attempts + 1, $e->getMessage(), microtime(true));
        } catch (RefusedDestination|\InvalidArgumentException $e) {
            return Decision::dead($e->getMessage());
        }
    }

    private function settle(SpooledRequest $request, Transfer $transfer): Decision
    {
        Scheduler::await($transfer);
        $outcome = $transfer->outcome();
        \assert($outcome instanceof ResponseInterface || $outcome instanceof ClientExceptionInterface);

        return $this->policy->decide($request, $request->attempts + 1, $outcome, microtime(true));
    }

    private function upstream(FallbackPolicy $policy): Upstream
    {
        return $this->upstreams[$policy->key()] ??= new Upstream($policy->guard(), $policy->cafile, $policy->timeout, null);
    }

    /** @throws \InvalidArgumentException an address that is not a relay's */
    private function relaySocket(string $address): RelaySocket
    {
        return $this->relays[$address] ??= new RelaySocket(RelayAddress::parse($address));
    }
}
