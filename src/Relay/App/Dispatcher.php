<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Log\LoggerInterface;
use WarmHttp\Exception\RequestException;
use WarmHttp\Relay\Wire\WireEncoder;

/**
 * Client::dispatch(): hands a request to the relay (async mode) and returns on its 202, which
 * the relay sends only once the request is durably spooled. Anything else (no relay, relay
 * down, disk full, too large) falls back to a send after the response, logged: never dropped.
 * Only a destination the relay refuses as unsafe (SSRF guard) is an error instead.
 *
 * @internal
 */
final class Dispatcher
{
    private readonly ?RelaySocket $socket;

    /** @param \Closure(RequestInterface): ResponseInterface $sendNow */
    public function __construct(
        ?RelayAddress $relay,
        private readonly ?string $token,
        private readonly LoggerInterface $logger,
        private readonly \Closure $sendNow,
    ) {
        $this->socket = $relay !== null ? new RelaySocket($relay) : null;
    }

    /** @throws RequestException the relay refused the destination */
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

    private function fallBack(RequestInterface $request, string $why): void
    {
        $this->logger->warning('Relay hand-off failed; the request will be sent after the response', [
            'reason' => $why,
            'method' => $request->getMethod(),
            'uri' => (string) $request->getUri(),
        ]);
        DeferredSends::add($request, $this->sendNow, $this->logger);
    }
}
