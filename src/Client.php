<?php

declare(strict_types=1);

namespace WarmHttp;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function getmypid;
use function md5;

use Nyholm\Psr7\Factory\Psr17Factory;
use Nyholm\Psr7\Request;
use Psr\Http\Message\RequestFactoryInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use Psr\Http\Message\StreamFactoryInterface;
use Psr\Http\Message\StreamInterface;
use Psr\Http\Message\UriFactoryInterface;
use Psr\Http\Message\UriInterface;
use Psr\Log\LoggerInterface;

use function serialize;

use WarmHttp\Internal\Batch;
use WarmHttp\Internal\ConnectionOwners;
use WarmHttp\Internal\CurlOptions;
use WarmHttp\Internal\CurlPool;
use WarmHttp\Internal\ErrorLogLogger;
use WarmHttp\Internal\LazyRequest;
use WarmHttp\Internal\MemoryStream;
use WarmHttp\Internal\Observers;
use WarmHttp\Internal\Options;
use WarmHttp\Internal\Psr7Exchange;
use WarmHttp\Internal\RequestGuard;
use WarmHttp\Internal\Scheduler;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Relay\App\Dispatcher;
use WarmHttp\Relay\App\SyncRedirects;
use WarmHttp\Relay\App\SyncRoute;

/**
 * A PSR-18 client on the process-wide warm pool. Make as many as you like: every instance
 * shares the same connections, DNS cache and TLS sessions. It is also a PSR-17 factory,
 * so `$client->createRequest('GET', $url)` needs no other package.
 */
final class Client implements HttpClient, RequestFactoryInterface, StreamFactoryInterface, UriFactoryInterface
{
    /** Private properties, not native readonly: PHP 8.2 writes those on the VM's slow path (issue 16). */
    private Options $options;

    /**
     * Made at construction for a direct client; for a relay_sync one when the curl hop is first
     * needed (sendAsync, sendAll, concurrently, streams): its plain sendRequest() calls go over
     * the relay's kept stream and never read them (~50 µs of an FPM request's first call).
     *
     * @var array<int, mixed>|null
     */
    private ?array $curlOptions = null;

    /** Made when first needed: 4 autoloads per PHP-FPM request (the factory, 3 more interfaces) that sendRequest() never uses. */
    private ?Psr17Factory $factory = null;

    private ?Dispatcher $dispatcher = null;

    /** Set with relay_sync only: a direct client pays one null check per request. */
    private ?SyncRoute $sync;

    /** Set only by withListener(): a client without listeners pays one null check per request. */
    private ?Observers $observers = null;

    /** Neither relay_sync nor default headers: a LazyRequest goes out as createRequest() made it. */
    private bool $direct;

    /**
     * Whether this client's transfers can keep their options on the easy handle: none of its
     * options is a per-transfer callback (max_response_bytes, stream, read_timeout) or an
     * identity the pool partitions (ConnectionOwners: client certificate, proxy credentials, NTLM).
     */
    private bool $keepsOptions;

    /**
     * What a LazyRequest sends, by method and URL: built and checked once, read by every later
     * request to the same URL (building it cost ~17 k instructions per request, issue 16).
     *
     * @var array<string, array<string, TransferSpec>>
     */
    private array $specs = [];

    /** The pool sendRequest() last used: CurlPool::get() is asked again when the pid changed (fork). */
    private static ?CurlPool $pool = null;

    /** Methods RequestGuard passes without its regex (its COMMON_METHODS). */
    private const TOKEN_METHODS = ['GET' => true, 'POST' => true, 'PUT' => true, 'PATCH' => true, 'DELETE' => true, 'HEAD' => true, 'OPTIONS' => true];

    /** Specs kept at most per method: a client that never repeats a URL builds one per request, as before. */
    private const KEPT_SPECS = 256;

    /**
     * @param array<string, mixed> $options see the README, "Options"; unknown names are refused
     *
     * @throws Exception\InvalidOptionException
     */
    public function __construct(array $options = [])
    {
        $this->options = Options::fromArray($options);
        // The values read in one call, not an accessor call each (~3 k instructions of a PHP-FPM request's first call).
        $values = $this->options->relaySync();
        // Not even loaded for a Client that only dispatches (one FPM request's file less).
        $this->sync = $values['relay_sync'] ? SyncRoute::of($this->options) : null;
        if ($this->sync === null) {
            $this->curlOptions = CurlOptions::forClient($this->options);
        }
        $this->direct = $this->sync === null && $this->options->headers() === [];
        $this->keepsOptions = $this->sync === null && $this->keepsOptions();
        if ($values['max_host_connections'] !== null || $values['max_total_connections'] !== null) {
            // Not made otherwise: a relay_sync Client under PHP-FPM may never need the pool.
            CurlPool::get()->limitConnections($values['max_host_connections'], $values['max_total_connections']);
        }
        if ($values['relay'] !== null) {
            // Every process with a relay client sends journaled fallbacks at the end of its unit
            // of work, also those another (perhaps dead) process left; no syscall until then, and
            // the journal is opened only then.
            DeferredSends::watch($values['relay_fallback_dir'], $values['logger']);
        }
    }

    /** @param array<string, mixed> $options merged over this client's options */
    public function withOptions(array $options): self
    {
        $client = new self($options + $this->options->given());
        $client->observers = $this->observers;

        return $client;
    }

    /**
     * A new client that also tells $listener about every request it sends: sendRequest,
     * sendAsync, sendAll, inside concurrently(), and dispatch(). See the README, "Observability".
     * A listener that throws is logged (the `logger` option), never the request's failure.
     *
     * @param callable(Observability\RequestEvent): void $listener
     */
    public function withListener(callable $listener): self
    {
        $client = new self($this->options->given());
        $client->observers = Observers::with($this->observers, $listener, $this->logger());

        return $client;
    }

    public function sendRequest(RequestInterface $request): ResponseInterface
    {
        if ($this->sync !== null && $this->observers === null) {
            // relay_sync over the kept stream to the relay: no curl handles for this request.
            $request = $this->prepare($request);
            $response = $this->sync->send($request);
            if ($response !== null) {
                return $response;
            }
        }
        // CurlPool::get(), its pid check written out: ~0.8 k instructions less per request (callgrind)
        $pool = self::$pool;
        if ($pool === null || $pool->pid !== getmypid()) {
            $pool = self::$pool = CurlPool::get();
        }
        if ($request instanceof LazyRequest && $this->direct && $this->observers === null && ($request->untouched || $request->isAsCreated()) && \Fiber::getCurrent() === null) {
            // start() and wait() written out for the warm case: a call less each (issue 16)
            $spec = $this->specs[$request->method][$request->url] ?? $this->keptSpec($request);
            // The Transfer and its exchange are made only if the general path takes over (~1.8 k instructions)
            $outcome = $pool->sendAlone($spec, $request);
            if ($outcome instanceof ResponseInterface) {
                return $outcome;
            }
            if ($outcome === null) {
                $transfer = new Transfer($spec, new Psr7Exchange($request));
                $pool->start($transfer);
                $pool->wait($transfer);

                return $transfer->response();
            }

            throw $outcome;
        }
        $transfer = $this->start($request, $pool);
        if (\Fiber::getCurrent() === null) {
            $pool->wait($transfer); // as Scheduler::await() does outside any fiber, a call less
        } else {
            Scheduler::await($transfer);
        }

        return $transfer->response();
    }

    /** Starts the request now and returns at once; many can be in flight on the shared pool. */
    public function sendAsync(RequestInterface $request): PendingResponse
    {
        return new PendingResponse($this->start($request, CurlPool::get()));
    }

    /**
     * Sends every request, at most $concurrency at a time, reading the input lazily.
     *
     * @param iterable<array-key, RequestInterface>                                                   $requests
     * @param null|callable(array-key, ResponseInterface|\Psr\Http\Client\ClientExceptionInterface, int): void $onProgress key, outcome, how many are done so far
     *
     * @return array<array-key, ResponseInterface|\Psr\Http\Client\ClientExceptionInterface> keyed and ordered like the input
     */
    public function sendAll(iterable $requests, int $concurrency = 50, ?callable $onProgress = null): array
    {
        if ($concurrency < 1) {
            throw new \InvalidArgumentException(\sprintf('sendAll(): $concurrency must be at least 1, got %d.', $concurrency));
        }

        return (new Batch(fn(RequestInterface $request): Transfer => $this->start($request, CurlPool::get()), $concurrency, $onProgress))->run($requests);
    }

    public function createRequest(string $method, $uri): RequestInterface
    {
        if (\is_string($uri) && ($lazy = LazyRequest::of($method, $uri)) !== null) {
            return $lazy;
        }
        // Given no body, nyholm's constructor leaves its Stream class (a 300-line file with an
        // anonymous class) unloaded: it would only hand our MemoryStream back.
        return (new Request($method, $uri))->withBody(new MemoryStream());
    }

    /** An in-memory stream: readable, writable, seekable. */
    public function createStream(string $content = ''): StreamInterface
    {
        return new MemoryStream($content);
    }

    public function createStreamFromFile(string $filename, string $mode = 'r'): StreamInterface
    {
        return ($this->factory ??= new Psr17Factory())->createStreamFromFile($filename, $mode);
    }

    public function createStreamFromResource($resource): StreamInterface
    {
        return ($this->factory ??= new Psr17Factory())->createStreamFromResource($resource);
    }

    public function createUri(string $uri = ''): UriInterface
    {
        return ($this->factory ??= new Psr17Factory())->createUri($uri);
    }

    /**
     * Fire-and-forget: hands the request to the relay (the `relay` option) and returns once the
     * relay has durably spooled it. If the relay is down or does not take it, the request is
     * written to the fallback journal (`relay_fallback_dir`) and sent at the end of the unit of
     * work (after the response, on Pool::reset(), at shutdown), under the relay's destination
     * policy (`relay_allow_private_networks`, `relay_allowed_hosts`); a warning is logged.
     *
     * @throws Exception\RequestException before anything is sent: an unusable request, or a
     *                                     destination the relay or the fallback's policy refuses
     */
    public function dispatch(RequestInterface $request): void
    {
        $request = $this->prepare($request);
        // The fallback's policy, destination guard, journal and logger are made on its first
        // fallback: a hand-off the relay takes loads none of them (seeds/004's FPM requests).
        $this->dispatcher ??= new Dispatcher(
            $this->options->relay(),
            $this->options->string('relay_token'),
            $this->options->logger(),
            $this->options,
            $this->options->string('relay_fallback_dir'),
        );
        $this->dispatcher->dispatch($request);
        $this->observers?->emit(new Observability\RequestDispatched($request));
    }

    private function logger(): LoggerInterface
    {
        return $this->options->logger() ?? new ErrorLogLogger();
    }

    /** @throws Exception\RequestException before anything is sent */
    private function start(RequestInterface $request, CurlPool $pool): Transfer
    {
        if ($request instanceof LazyRequest && $this->direct && ($request->untouched || $request->isAsCreated())) {
            $transfer = new Transfer($this->specs[$request->method][$request->url] ?? $this->keptSpec($request), new Psr7Exchange($request));
            $this->observers?->watch($request, $transfer);
            $pool->start($transfer);

            return $transfer;
        }
        $request = $this->prepare($request);
        $transfer = $this->launch($request);
        if ($this->sync !== null && $this->options->bool('follow_redirects')) {
            return SyncRedirects::follow($request, $transfer, function (RequestInterface $next): Transfer {
                RequestGuard::check($next);

                return $this->launch($next);
            }, $this->options->int('max_redirects') ?? 5);
        }

        return $transfer;
    }

    private function launch(RequestInterface $request): Transfer
    {
        $resendable = Psr7Exchange::isSafeToResend($request);
        $curl = CurlOptions::forRequest($request, $this->curlOptions ??= CurlOptions::forClient($this->options), $this->options->string('http_version'), $resendable);
        if ($this->sync !== null) {
            $curl = $this->sync->curlOptions($curl, $request);
        }
        $spec = Psr7Exchange::spec($request, $resendable, $curl, $this->options->bool('stream'), $this->options->int('max_response_bytes'));
        $transfer = new Transfer($spec, $this->sync?->exchange($request) ?? new Psr7Exchange($request));
        $this->observers?->watch($request, $transfer);
        CurlPool::get()->start($transfer);

        return $transfer;
    }

    /**
     * The spec of a LazyRequest without body, checked and built as launch() does it. Its
     * profile names its options but CURLOPT_URL: specs of any client with the same options
     * share easy handles that keep them (CurlPool::launch), also clients made per request.
     *
     * @throws Exception\RequestException
     */
    private function keptSpec(LazyRequest $request): TransferSpec
    {
        RequestGuard::check($request);
        if (\count($this->specs[$request->method] ?? []) >= self::KEPT_SPECS) {
            $this->specs[$request->method] = [];
        }
        $resendable = Psr7Exchange::isSafeToResend($request);
        $curl = CurlOptions::forRequest($request, $this->curlOptions ??= CurlOptions::forClient($this->options), $this->options->string('http_version'), $resendable);
        $profile = null;
        if ($this->keepsOptions) {
            $options = $curl;
            unset($options[\CURLOPT_URL]);
            $profile = md5(serialize($options)); // scalars and header lists only: no callback here
        }

        return $this->specs[$request->method][$request->url] = Psr7Exchange::spec($request, $resendable, $curl, $this->options->bool('stream'), $this->options->int('max_response_bytes'), $profile);
    }

    private function keepsOptions(): bool
    {
        return !$this->options->bool('stream') && $this->options->int('max_response_bytes') === null
            && !isset($this->curlOptions[\CURLOPT_XFERINFOFUNCTION]) && !ConnectionOwners::concern($this->curlOptions ?? []);
    }

    private function prepare(RequestInterface $request): RequestInterface
    {
        if ($request instanceof LazyRequest && $request->untouched && isset(self::TOKEN_METHODS[$request->method]) && $this->options->headers() === []) {
            // All RequestGuard::check() looks at in such a request (LazyRequest::of() took its
            // URL, its one header is the Host from it): its file is not loaded for a PHP-FPM
            // request's relay_sync call (~4 k instructions, callgrind).
            return $request;
        }
        foreach ($this->options->headers() as $name => $value) {
            if (!$request->hasHeader($name)) {
                $request = $request->withHeader($name, $value);
            }
        }
        RequestGuard::check($request);

        return $request;
    }
}
