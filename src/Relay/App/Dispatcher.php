<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
use Psr\Log\LoggerInterface;
use WarmHttp\Exception\RequestException;
use WarmHttp\Internal\ErrorLogLogger;
use WarmHttp\Internal\Options;
use WarmHttp\Relay\Guard\DestinationGuard;
use WarmHttp\Relay\Guard\RefusedDestination;
use WarmHttp\Relay\Guard\UnresolvableHost;
use WarmHttp\Relay\Wire\WireEncoder;

/**
 * Client::dispatch(): hands a request to the relay (async mode) and returns on its 202, which
 * the relay sends only once the request is durably spooled. Anything else (no relay, relay
 * down, disk full, too large) falls back: the request is written to the fallback journal
 * (fsync'd) and sent at the end of the unit of work, under the relay's destination policy.
 * A destination that policy refuses is an error, before anything is sent or stored.
 *
 * @internal
 */
final class Dispatcher
{
    private readonly ?RelaySocket $socket;

    /** Made on the first fallback, as the policy, the journal and the logger: a hand-off the relay takes makes none of them. */
    private ?DestinationGuard $guard = null;

    /**
     * @param FallbackPolicy|Options       $policy  the policy, or the Client's options to read it from on the first fallback
     * @param FallbackJournal|string|null  $journal the journal, or its directory (null: the default one), opened on the first fallback
     * @param LoggerInterface|null         $logger  null: error_log, made when there is something to say
     */
    public function __construct(
        private readonly ?RelayAddress $relay,
        private readonly ?string $token,
        private readonly ?LoggerInterface $logger,
        private FallbackPolicy|Options $policy,
        private FallbackJournal|string|null $journal,
    ) {
        $this->socket = $relay !== null ? new RelaySocket($relay) : null;
        DeferredSends::watch($journal, $logger);
    }

    /** @throws RequestException a destination the relay or the fallback's policy refuses */
    public function dispatch(RequestInterface $request): void
    {
        // Assigned here, not by the relay, so a resend after a broken hand-off and the
        // fallback carry the same key as what the relay may already have spooled.
        if (!$request->hasHeader('Idempotency-Key')) {
            $request = $request->withHeader('Idempotency-Key', bin2hex(random_bytes(16)));
        }
        if ($this->socket === null) {
            $this->fallBack($request, 'no relay is configured (the "relay" option)');

            return;
        }
        try {
            [$status, $error] = $this->socket->exchange(WireEncoder::encode($request, 'async', $this->token));
        } catch (RelayUnreachable $e) {
            $this->fallBack($request, $e->getMessage());

            return;
        }
        if ($status === 202) {
            return;
        }
        if ($status === 403) {
            throw new RequestException($request, 'The relay refused to deliver this request: ' . $error);
        }
        $this->fallBack($request, \sprintf('the relay answered %d: %s', $status, $error));
    }

    /** @throws RequestException */
    private function fallBack(RequestInterface $request, string $why): void
    {
        $this->checkDestination($request, $why);
        $policy = $this->policy();
        $journal = $this->journal = $this->journal instanceof FallbackJournal ? $this->journal : DeferredSends::journal($this->journal, $this->logger);
        $logger = $this->logger ?? new ErrorLogLogger();
        $entry = FallbackEntry::of($request, $request->getHeaderLine('Idempotency-Key'), $policy, $this->relay, $this->token);
        $context = ['reason' => $why, 'method' => $request->getMethod(), 'uri' => (string) $request->getUri()];
        try {
            $journal->append($entry);
        } catch (JournalUnwritable $e) {
            $logger->error('Relay hand-off failed and the fallback journal could not be written; the request is held IN MEMORY only and is lost if this process dies before the end of this unit of work', $context + ['journal_error' => $e->getMessage()]);
            DeferredSends::keep($entry, $logger);

            return;
        }
        DeferredSends::journaled($journal);
        $logger->warning('Relay hand-off failed; the request was written to the fallback journal and is sent at the end of this unit of work', $context + ['journal' => $journal->dir]);
    }

    private function policy(): FallbackPolicy
    {
        return $this->policy = $this->policy instanceof FallbackPolicy ? $this->policy : FallbackPolicy::fromOptions($this->policy);
    }

    /**
     * The relay's default policy (or the Client's relay_allow_* options) applies to what the app
     * sends itself: checked now, so a refused destination fails the dispatch() call. A host that
     * does not resolve now is journaled; it is checked again (and pinned) when sent.
     *
     * @throws RequestException
     */
    private function checkDestination(RequestInterface $request, string $why): void
    {
        try {
            ($this->guard ??= $this->policy()->guard())->check($request->getUri()->getHost());
        } catch (UnresolvableHost) {
            return;
        } catch (RefusedDestination $e) {
            throw new RequestException($request, \sprintf(
                'dispatch() did not send this request: the relay did not take it (%s) and the app\'s fallback applies the relay\'s destination policy. %s To let the fallback send it, give the Client the same policy as the relay: "relay_allow_private_networks" => true (like --allow-private-networks) or "relay_allowed_hosts" => ["%s"] (like --allow-host).',
                $why,
                $e->getMessage(),
                $request->getUri()->getHost(),
            ));
        }
    }
}
