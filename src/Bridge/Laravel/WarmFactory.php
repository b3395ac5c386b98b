<?php

declare(strict_types=1);

namespace WarmHttp\Bridge\Laravel;

use Illuminate\Contracts\Events\Dispatcher;
use Illuminate\Http\Client\Factory;
use Illuminate\Http\Client\PendingRequest;
use WarmHttp\Bridge\Guzzle\Handler;

/**
 * Laravel's Http factory with WarmHttp's Guzzle handler under every request. Laravel 12
 * builds a new Guzzle handler per request, and Http::pool / Http::batch pick Guzzle's default
 * handler themselves (through setHandler); both are replaced here, while a handler the
 * application sets on purpose (a MockHandler, a custom one) is kept. Http::fake() still
 * works: Laravel's stub middleware answers before any handler is reached.
 *
 * @internal bound by WarmHttpServiceProvider
 */
final class WarmFactory extends Factory
{
    public function __construct(private readonly Handler $warmHandler, ?Dispatcher $dispatcher = null)
    {
        parent::__construct($dispatcher);
    }

    /**
     * @param string       $method
     * @param array<mixed> $parameters
     */
    public function __call($method, $parameters)
    {
        if ($method === 'setHandler' && GuzzleDefaultHandler::is($parameters[0] ?? null)) {
            $parameters[0] = $this->warmHandler->forNewClient();
        }

        return parent::__call($method, $parameters);
    }

    /** @return PendingRequest */
    protected function newPendingRequest()
    {
        // A queue per PendingRequest, as Laravel's own Guzzle Client per request has: a request
        // one never waits for is not sent by another's wait (Handler::forNewClient()).
        return parent::newPendingRequest()->setHandler($this->warmHandler->forNewClient());
    }
}
