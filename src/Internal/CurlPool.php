<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

use function array_pop;
use function curl_multi_add_handle;
use function curl_multi_exec;
use function curl_multi_info_read;
use function curl_multi_remove_handle;
use function curl_multi_select;

use Psr\Http\Client\ClientExceptionInterface;
use Psr\Http\Message\RequestInterface;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\PoolStats;
use WarmHttp\Response;

/**
 * The one owner of the process-wide curl state: a multi handle (the connection cache, so every
 * Client in the process shares warm connections and HTTP/2 streams), a share handle (DNS cache
 * and TLS sessions) and recycled easy handles. It knows its pid: a forked child gets a new pool.
 *
 * @internal
 *
 * @phpstan-import-type Info from CurlInfo
 */
final class CurlPool
{
    private const SPARE_HANDLES = 64;

    /** Idle connections the pool keeps, for every origin and identity together. */
    private const IDLE_CONNECTIONS = 256;

    /**
     * A streamed transfer's output goes to its callbacks only. A kept handle that carried one
     * keeps these, and gets only its new callbacks (~5 µs of a relay sync request's cold path).
     * Set before the callbacks: PHP 8.2 sends the body to stdout when CURLOPT_RETURNTRANSFER
     * false comes after CURLOPT_WRITEFUNCTION (each sets the handle's one output method).
     */
    private const STREAMED_OUTPUT = [\CURLOPT_RETURNTRANSFER => false, \CURLOPT_HEADER => false];

    private static ?self $instance = null;

    /** Whether this request has loaded the classes that settling a response needs. */
    private static bool $settleClassesLoaded = false;

    /**
     * Pools of a parent process, kept alive in a forked child for as long as the child runs:
     * destroying them would run curl's cleanup on sockets the parent still uses (TLS
     * close_notify, HTTP/2 GOAWAY). Nothing reads them; holding them is the point.
     *
     * @var list<self>
     *
     * @phpstan-ignore property.onlyWritten
     */
    private static array $inherited = [];

    private readonly \CurlMultiHandle $multi;

    /** A CurlShareHandle, or on PHP 8.5+ a CurlSharePersistentHandle that outlives the request. */
    private readonly object $share;

    /** @var array<int, Transfer> in flight, by spl_object_id of their easy handle */
    private array $active = [];

    /** @var array<int, \CurlHandle> same keys as $active */
    private array $handles = [];

    /** @var list<\CurlHandle> reset: no option set */
    private array $spare = [];

    /**
     * By TransferSpec::$profile: handles that keep its options, the URL each has, the
     * per-transfer options it was last given (TransferSpec::$perTransfer), and whether it
     * carried a streamed transfer (its output options are STREAMED_OUTPUT's).
     *
     * @var array<string, list<array{\CurlHandle, string, array<int, mixed>, bool}>>
     */
    private array $kept = [];

    private int $keptCount = 0;

    /** @var array<int, Transfer> streamed transfers whose first body bytes arrived: settle them */
    private array $headersIn = [];

    private bool $bodyArrived = false;

    /** Requests sendAlone() settled on a reused connection: counted here, added in stats(). */
    private int $reusedAlone = 0;

    /**
     * The handle sendAlone() drives, while it does (it is in curl, not in $active): a request
     * sent meanwhile (from a signal handler) takes the general path, which leaves this one's
     * end to it (finish() keeps it in $aloneErrno).
     */
    private ?\CurlHandle $alone = null;

    private ?int $aloneErrno = null;

    private readonly ConnectionOwners $owners;

    private readonly PoolCounters $counters;

    private readonly MultiplexGate $gate;

    private function __construct(public readonly int $pid)
    {
        $this->multi = curl_multi_init();
        // One multi handle is the pool: HTTP/2 streams multiplex only on connections the same
        // multi holds, and its per-host cap stays honest (a CONNECT share would bypass it).
        curl_multi_setopt($this->multi, \CURLMOPT_PIPELINING, \CURLPIPE_MULTIPLEX);
        // Unset, libcurl 7.88 keeps 4 idle connections per easy handle in the multi: one
        // request at a time kept 4, and a fifth origin or identity (client certificate, proxy,
        // TLS settings) closed the oldest (PoolPartitionTest: 5 clients in turn opened 15
        // connections for 15 requests). Idle ones still retire after max_idle_seconds.
        curl_multi_setopt($this->multi, \CURLMOPT_MAXCONNECTS, self::IDLE_CONNECTIONS);
        $this->share = self::shareHandle();
        $this->counters = new PoolCounters();
        $this->gate = new MultiplexGate();
        $this->owners = new ConnectionOwners();
    }

    /**
     * PHP 8.5's persistent share handle survives the end of a PHP-FPM request, connections
     * included: there it is the only way to stay warm across requests, so it shares
     * connections too (caps then hold per request, not per process). Our CI runs PHP 8.2,
     * which takes the plain branch; on 8.2-8.4 the relay's sync mode keeps FPM warm instead.
     */
    private static function shareHandle(): object
    {
        $persistentInit = 'curl_share_init_persistent';
        if (\is_callable($persistentInit)) { // @phpstan-ignore function.impossibleType (exists from PHP 8.5 on)
            $persistent = $persistentInit([\CURL_LOCK_DATA_DNS, \CURL_LOCK_DATA_SSL_SESSION, \CURL_LOCK_DATA_CONNECT]);
            if (\is_object($persistent)) {
                return $persistent;
            }
        }
        $share = curl_share_init();
        curl_share_setopt($share, \CURLSHOPT_SHARE, \CURL_LOCK_DATA_DNS);
        curl_share_setopt($share, \CURLSHOPT_SHARE, \CURL_LOCK_DATA_SSL_SESSION);

        return $share;
    }

    public static function get(): self
    {
        $pid = getmypid();
        if (self::$instance === null || self::$instance->pid !== $pid) {
            if (self::$instance !== null) {
                self::$inherited[] = self::$instance;
            }
            self::$instance = new self((int) $pid);
        }

        return self::$instance;
    }

    public function __clone()
    {
        throw new \LogicException('The WarmHttp pool owns curl handles and cannot be cloned.');
    }

    public function __serialize(): array
    {
        throw new \LogicException('The WarmHttp pool owns curl handles and cannot be serialized.');
    }

    /** Sets the pool-wide connection caps (they concern the remote hosts, so they are per process). */
    public function limitConnections(?int $perHost, ?int $total): void
    {
        if ($perHost !== null) {
            curl_multi_setopt($this->multi, \CURLMOPT_MAX_HOST_CONNECTIONS, $perHost);
        }
        if ($total !== null) {
            curl_multi_setopt($this->multi, \CURLMOPT_MAX_TOTAL_CONNECTIONS, $total);
        }
    }

    /** Hands the transfer to curl, or keeps it until an HTTP/2 stream is free (MultiplexGate). */
    public function start(Transfer $transfer): void
    {
        if ((!$this->gate->counting && \count($this->active) < MultiplexGate::STREAMS_PER_CONNECTION - 1) || $this->gate->admit($transfer, $this->active)) {
            $this->launch($transfer);
        }
    }

    private function launch(Transfer $transfer, bool $freshConnection = false): void
    {
        $transfer->attempt();
        $profile = $transfer->spec->profile;
        if ($profile !== null && !$freshConnection) {
            // A curl_reset() and 22 options cost ~11 k instructions per request (callgrind,
            // issue 16): the handle keeps its profile's options, and gets only its URL.
            $kept = isset($this->kept[$profile]) ? array_pop($this->kept[$profile]) : null;
            if ($kept !== null && $this->kept[$profile] === []) {
                // No empty lists left behind: profiles carry a relay caller's settings, address
                // and port, so only profiles holding handles (at most SPARE_HANDLES) stay.
                unset($this->kept[$profile]);
            }
            $handle = $kept === null ? $this->keptHandle($transfer->spec) : $this->reuse($kept, $transfer->spec);
            $id = spl_object_id($handle);
            if ($transfer->streamedBody !== null) {
                // The relay's sync transfers: its callbacks are this transfer's, cleared in
                // recycle(); a handle that carried a streamed transfer keeps STREAMED_OUTPUT.
                $callbacks = $this->streaming($transfer, $transfer->streamedBody, $id);
                curl_setopt_array($handle, $kept !== null && $kept[3] ? $callbacks : self::STREAMED_OUTPUT + $callbacks);
                $transfer->streamedBody->attach($handle);
            }
            $this->active[$id] = $transfer;
            $this->handles[$id] = $handle;
            curl_multi_add_handle($this->multi, $handle);

            return;
        }
        $handle = $this->spareHandle();
        $options = $transfer->spec->curlOptions + [\CURLOPT_SHARE => $this->share];
        if ($transfer->cappedBody !== null) {
            $options = self::sizeGuard($transfer->cappedBody) + $options;
        } elseif ($transfer->spec->sink === ResponseSink::Discarded) {
            $options = DiscardedResponse::curlOptions($transfer->spec->maxResponseBytes) + $options;
        }
        if ($freshConnection) {
            $options[\CURLOPT_FRESH_CONNECT] = true;
        }
        if (ConnectionOwners::concern($options)) {
            $options = $this->owners->apart($options) + $options;
        }
        if (isset($options[\CURLOPT_XFERINFOFUNCTION]) && $options[\CURLOPT_XFERINFOFUNCTION] instanceof ReadTimeout) {
            $options[\CURLOPT_XFERINFOFUNCTION] = $options[\CURLOPT_XFERINFOFUNCTION]->watch($transfer);
        }
        $id = spl_object_id($handle);
        if ($transfer->streamedBody !== null) {
            $options = self::STREAMED_OUTPUT + $this->streaming($transfer, $transfer->streamedBody, $id) + $options;
            $transfer->streamedBody->attach($handle);
        } elseif ($transfer->stopsAtHead()) {
            $options[\CURLOPT_HEADERFUNCTION] = static fn($ch, string $line): int => $transfer->receiveHeadOnly($line);
        }
        curl_setopt_array($handle, $options);
        $this->active[$id] = $transfer;
        $this->handles[$id] = $handle;
        curl_multi_add_handle($this->multi, $handle);
    }

    /**
     * A handle for a transfer whose options are its profile's (TransferSpec::$profile): it
     * keeps them after the transfer (recycle()). None of them is a callback, so nothing of the
     * earlier request stays reachable.
     */
    private function keptHandle(TransferSpec $spec): \CurlHandle
    {
        $handle = $this->spareHandle();
        curl_setopt_array($handle, $spec->curlOptions + [\CURLOPT_SHARE => $this->share]);

        return $handle;
    }

    /** @param array{\CurlHandle, string, array<int, mixed>, bool} $kept a handle of the profile, the URL and per-transfer options it has */
    private function reuse(array $kept, TransferSpec $spec): \CurlHandle
    {
        --$this->keptCount;
        if ($kept[1] !== $spec->url && $spec->url !== '') {
            curl_setopt($kept[0], \CURLOPT_URL, $spec->url);
        }
        // The relay's sync requests: a caller sends the same header lines request after request,
        // and giving curl the same list again cost ~1.8 k instructions (callgrind).
        if ($spec->perTransfer !== [] && $spec->perTransfer !== $kept[2]) {
            curl_setopt_array($kept[0], $spec->perTransfer);
        }

        return $kept[0];
    }

    /** A handle with no options set: a spare one, one that kept another profile's (reset), or a new one. */
    private function spareHandle(): \CurlHandle
    {
        $handle = array_pop($this->spare);
        if ($handle !== null) {
            return $handle;
        }
        foreach ($this->kept as $profile => $kept) {
            unset($this->kept[$profile]);
            if ($kept !== []) {
                $handle = array_pop($kept)[0];
                $this->keptCount -= \count($kept) + 1;
                curl_reset($handle);
                foreach ($kept as [$other]) {
                    curl_reset($other);
                    $this->spare[] = $other;
                }

                return $handle;
            }
        }

        return curl_init();
    }

    /**
     * A sendRequest() outside fibers whose spec keeps its profile's options (TransferSpec::
     * $profile), when nothing else is in the pool: started, driven and settled here in one
     * frame, on a kept handle, as start(), wait(), finish() and recycle() would do it. Their
     * calls and checks cost ~3 k instructions of a warm request (callgrind, issue 16). It takes
     * the spec and its request rather than a Transfer: the Transfer and its exchange (~2 k
     * more) are made only if the general path takes over, on a failure (retry, classification,
     * failedAlone()). Returns null, having done nothing, when the request needs the general
     * path. The outcome is returned, not settled: only the caller holds this request (no
     * listener, no fiber waits on it).
     *
     * The curl functions it calls are imported by name (use function): PHP then calls them
     * directly, not through the namespace fallback, ~25 instructions less per call (callgrind).
     *
     * @param RequestInterface $request the body-less request $spec was made of
     */
    public function sendAlone(TransferSpec $spec, RequestInterface $request): ResponseInterface|ClientExceptionInterface|null
    {
        $profile = $spec->profile;
        if ($profile === null || $this->active !== [] || $this->alone !== null || $this->gate->counting || ($this->kept[$profile] ?? []) === []) {
            return null;
        }
        // The handle stays counted in $keptCount while it works (failedAlone() takes it out),
        // and its [handle, URL] pair goes back as it is: a new pair per request cost ~0.7 k
        // instructions (callgrind, issue 16).
        $kept = array_pop($this->kept[$profile]);
        $handle = $kept[0];
        if ($kept[1] !== $spec->url && $spec->url !== '') {
            curl_setopt($handle, \CURLOPT_URL, $spec->url);
            $kept[1] = $spec->url;
        }
        curl_multi_add_handle($this->multi, $handle);
        $errno = $this->driveAlone($handle);
        if ($errno !== \CURLE_OK) {
            --$this->keptCount;
            if ($this->kept[$profile] === []) {
                unset($this->kept[$profile]);
            }

            return $this->failedAlone(new Transfer($spec, new Psr7Exchange($request)), $handle, $errno);
        }
        curl_multi_remove_handle($this->multi, $handle);
        // A warm HTTP/2 answer is read straight into its Response, facts included (~2 k
        // instructions less, callgrind); a spec with a profile has no stream, size cap, nor HEAD
        // stopped at its head.
        $outcome = Response::ofWarmHttp2($handle);
        if ($outcome !== null) {
            ++$this->reusedAlone; // PoolCounters::record() for a reused connection, without its call
        } else {
            $outcome = $this->readAlone($spec, $request, $handle);
        }
        $this->kept[$profile][] = $kept;

        return $outcome;
    }

    /** What sendAlone() read on $handle that is not a warm HTTP/2 answer (Response::ofWarmHttp2()). */
    private function readAlone(TransferSpec $spec, RequestInterface $request, \CurlHandle $handle): ResponseInterface|ClientExceptionInterface
    {
        $info = CurlInfo::read($handle, ($spec->curlOptions[\CURLOPT_FOLLOWLOCATION] ?? false) === true);
        if ($info['num_connects'] === 0) {
            ++$this->reusedAlone;
        } else {
            $this->counters->record($spec->host, $info);
        }
        $raw = (string) curl_multi_getcontent($handle);

        return Response::ofHttp2($raw, $info['header_size'], $info) ?? Psr7Exchange::buffered($request, $raw, $info);
    }

    /**
     * The general path takes over a request sendAlone() started: it enters the pool's books
     * only now (nothing read them while it ran alone: no callback of ours runs for it), as its
     * first attempt (a dead reused connection is retried, finish()).
     */
    private function failedAlone(Transfer $transfer, \CurlHandle $handle, ?int $errno): ResponseInterface|ClientExceptionInterface|null
    {
        $transfer->attempt();
        $id = spl_object_id($handle);
        $this->active[$id] = $transfer;
        $this->handles[$id] = $handle;
        if ($errno !== null) {
            $this->finish($handle, $errno);
        }
        $this->wait($transfer);

        return $transfer->outcome();
    }

    /** Drives transfers until this one has settled, moving every other one along too. */
    public function wait(Transfer $transfer): void
    {
        // Only when it is this transfer that is alone in curl: one that settled already, or a
        // streamed one (settled at its head by perform()), must not wait for another's end.
        if ($transfer->streamedBody === null && \count($this->active) === 1 && reset($this->active) === $transfer && $this->headersIn === [] && $this->alone === null && !$this->gate->counting) {
            $errno = $this->driveAlone();
            if ($errno !== null) {
                $handle = reset($this->handles);
                \assert($handle instanceof \CurlHandle);
                $this->finish($handle, $errno);
            }
        }
        while (!$transfer->isSettled()) {
            // tick(), written out: a call less per round of every sequential request
            if ($this->perform() || $this->active === []) {
                continue;
            }
            if (!self::$settleClassesLoaded) {
                self::loadSettleClasses();
            }
            if (curl_multi_select($this->multi, 1.0) === -1) {
                usleep(1000);
            }
        }
    }

    /**
     * The one transfer in curl (a sendRequest() with nothing else in flight), driven to its end
     * without the rounds' bookkeeping: curl_multi_exec() until nothing runs, then its message.
     * With a buffered body no callback of ours records anything while curl works, so there is
     * nothing else to settle. ~1.5 k instructions per round less (callgrind, issue 16); what
     * this leaves unsettled (a retry) the caller's general loop finishes.
     *
     * @param \CurlHandle|null $alone sendAlone()'s handle, outside $active: a request sent while
     *                                it runs (a signal handler) takes the general path, whose
     *                                loop keeps this one's end for it (finish(), $aloneErrno)
     *
     * @return int|null the transfer's curl error (CURLE_OK: done), null if curl reported none
     */
    private function driveAlone(?\CurlHandle $alone = null): ?int
    {
        $multi = $this->multi;
        $this->alone = $alone;
        try {
            do {
                $status = curl_multi_exec($multi, $running);
                if ($status === \CURLM_CALL_MULTI_PERFORM) {
                    continue;
                }
                if ($running === 0 || $status !== \CURLM_OK) {
                    break;
                }
                if (!self::$settleClassesLoaded) {
                    self::loadSettleClasses();
                }
                if (curl_multi_select($multi, 1.0) === -1) {
                    usleep(1000);
                }
            } while (true);
            $message = curl_multi_info_read($multi);
        } catch (\Throwable $e) {
            // Thrown by a signal handler: the handle leaves curl, so that no later loop reads its end as another's
            if ($alone !== null) {
                curl_multi_remove_handle($multi, $alone);
            }
            $this->alone = $this->aloneErrno = null;

            throw $e;
        }
        $errno = $message !== false && $message['msg'] === \CURLMSG_DONE && \is_int($message['result']) ? $message['result'] : $this->aloneErrno;
        $this->alone = $this->aloneErrno = null;

        return $errno;
    }

    /**
     * Lets curl start what was added, now: the relay front sends a sync request before the rest
     * of its turn (its answer's bookkeeping, the other callers) rather than after it. Settles
     * nothing: what finished waits in curl's messages, and what arrived in the streamed bodies'
     * marks (headersIn, bodyArrived), for the next perform().
     */
    public function kick(): void
    {
        curl_multi_exec($this->multi, $running);
    }

    /**
     * One round that never waits: curl works, what finished settles. For a caller that waits
     * on its own select (the relay front: its callers' and curl's sockets together): tick(0.0)
     * would add a curl_multi_wait() and a second curl_multi_exec() that find nothing new.
     */
    public function run(): void
    {
        $this->perform();
    }

    /** One round: let curl work, settle what finished, then sleep until a socket is ready. */
    public function tick(float $maxWaitSeconds = 1.0): void
    {
        if ($this->perform() || $this->active === []) {
            return;
        }
        if (!self::$settleClassesLoaded) {
            self::loadSettleClasses();
        }
        if (curl_multi_select($this->multi, $maxWaitSeconds) === -1) {
            usleep(1000); // nothing to select on yet (resolving, or waiting out a retry)
        }
        $this->perform();
    }

    /**
     * Under PHP-FPM every request autoloads these anew, on a CPU gone cold while it waited
     * (settling took 145 µs at 20 ms RTT, measured): done while curl waits for the answer.
     */
    private static function loadSettleClasses(): void
    {
        self::$settleClassesLoaded = true;
        class_exists(CurlInfo::class);
        class_exists(ResponseParser::class);
        class_exists(MemoryStream::class);
        class_exists(\WarmHttp\Response::class);
    }

    public function cancel(Transfer $transfer, ClientExceptionInterface $reason): void
    {
        $id = array_search($transfer, $this->active, true);
        if ($id !== false) {
            $handle = $this->handles[$id];
            unset($this->active[$id], $this->handles[$id], $this->headersIn[$id]);
            curl_multi_remove_handle($this->multi, $handle);
            $this->recycle($handle);
            $this->startReady($transfer, 0, false);
        } else {
            $this->gate->withdraw($transfer);
        }
        $transfer->finishStreamedBody($reason);
        $transfer->settle($reason);
    }

    /** Stops a streamed transfer whose body nobody will read; its connection is closed, not reused. */
    public function abort(Transfer $transfer): void
    {
        $this->cancel($transfer, $transfer->exchange->stopped($transfer, 'the response body was closed before it was read to the end'));
    }

    /**
     * Drops per-request state (transfers nobody waits for any more); warm connections stay.
     *
     * @param \Closure(Transfer): ClientExceptionInterface $abandoned the reason each one gets
     */
    public function reset(\Closure $abandoned): void
    {
        foreach ([...$this->gate->allWaiting(), ...$this->active] as $transfer) {
            $this->cancel($transfer, $abandoned($transfer));
        }
    }

    /** Transfers started and not settled: in curl, or waiting for an HTTP/2 stream. */
    public function inFlight(): int
    {
        return \count($this->active) + $this->gate->waiting();
    }

    /**
     * The easy handles of the transfers now in curl, by spl_object_id: the relay front finds
     * their sockets to wait on them together with its callers' (PHP 8.2 cannot hand
     * curl_multi_select other descriptors).
     *
     * @return array<int, \CurlHandle>
     */
    public function handlesInFlight(): array
    {
        return $this->handles;
    }

    public function stats(): PoolStats
    {
        return $this->counters->snapshot($this->inFlight(), $this->reusedAlone);
    }

    /** @return bool whether any transfer settled or any streamed body received data */
    private function perform(): bool
    {
        do {
            $status = curl_multi_exec($this->multi, $running);
        } while ($status === \CURLM_CALL_MULTI_PERFORM);
        $settled = false;
        // Only a finished transfer leaves a message, and only a finished one stops running.
        while ($running < \count($this->active) + ($this->alone === null ? 0 : 1) && ($message = curl_multi_info_read($this->multi)) !== false) {
            if ($message['msg'] === \CURLMSG_DONE && $message['handle'] instanceof \CurlHandle && \is_int($message['result'])) {
                $this->finish($message['handle'], $message['result']);
                $settled = true;
            }
        }
        foreach ($this->headersIn as $id => $transfer) {
            unset($this->headersIn[$id]);
            $handle = $this->handles[$id] ?? null;
            if ($handle !== null && !$transfer->isSettled()) {
                $transfer->settle($transfer->exchange->response($transfer, $handle, CurlInfo::read($handle)));
                $settled = true;
            }
        }

        $progressed = $settled || $this->bodyArrived;
        $this->bodyArrived = false;

        return $progressed;
    }

    private static function hasDiscardedStatus(Transfer $transfer, \CurlHandle $handle): bool
    {
        return $transfer->spec->sink === ResponseSink::Discarded && curl_getinfo($handle, \CURLINFO_RESPONSE_CODE) > 0;
    }

    private function finish(\CurlHandle $handle, int $errno): void
    {
        $id = spl_object_id($handle);
        $transfer = $this->active[$id] ?? null;
        unset($this->active[$id], $this->handles[$id]);
        curl_multi_remove_handle($this->multi, $handle);
        if ($transfer === null) {
            if ($handle === $this->alone) {
                $this->aloneErrno = $errno; // sendAlone() settles it when the signal handler returns

                return;
            }
            $this->recycle($handle);

            return;
        }
        $info = CurlInfo::read($handle, ($transfer->spec->curlOptions[\CURLOPT_FOLLOWLOCATION] ?? false) === true);
        $this->counters->record($transfer->spec->host, $info);
        if ($errno !== \CURLE_OK) {
            $errno = self::excused($transfer, $handle, $errno);
            if ($errno !== \CURLE_OK && $this->shouldRetry($transfer, $errno, $info)) {
                $this->recycle($handle);
                $this->counters->retried();
                $this->launch($transfer, freshConnection: true);

                return;
            }
        }
        $failure = $errno === \CURLE_OK ? null : $transfer->exchange->failure($transfer, $this->classify($transfer, $errno, $handle, $info));
        if ($transfer->streamedBody !== null) {
            $transfer->finishStreamedBody($failure);
        }
        if (!$transfer->isSettled()) {
            $transfer->settle($failure ?? $transfer->exchange->response($transfer, $handle, $info));
        }
        $this->recycle($handle, $transfer);
        if ($this->gate->counting) {
            $this->startReady($transfer, $info['http_version'], $info['num_connects'] > 0);
        }
    }

    /** CURLE_OK for the errors that end a transfer as asked; the error otherwise. */
    private static function excused(Transfer $transfer, \CurlHandle $handle, int $errno): int
    {
        if ($errno === \CURLE_WRITE_ERROR && $transfer->stoppedAtHead()) {
            return \CURLE_OK; // a HEAD sent with a body, stopped where its answer ends
        }
        if ($errno === \CURLE_FILESIZE_EXCEEDED && self::hasDiscardedStatus($transfer, $handle)) {
            // A discarded answer's size cap only spares reading it: its status is in and decides
            // (a relay delivery answered 503 with a 2 MiB body is retried, not taken as delivered).
            return \CURLE_OK;
        }

        return $errno;
    }

    /** @param array<string, mixed> $info */
    private function classify(Transfer $transfer, int $errno, \CurlHandle $handle, array $info): Failure
    {
        if ($errno === \CURLE_ABORTED_BY_CALLBACK && $transfer->hasReadTimedOut()) {
            $watch = $transfer->spec->curlOptions[\CURLOPT_XFERINFOFUNCTION] ?? null;

            return new Failure(FailureKind::Timeout, \sprintf(
                'no byte arrived for %s s, the "read_timeout" option (%.3f s elapsed)',
                $watch instanceof ReadTimeout ? $watch->seconds : '?',
                (\is_int($info['total_time_us'] ?? null) ? $info['total_time_us'] : 0) / 1e6,
            ), \CURLE_OPERATION_TIMEDOUT);
        }

        return CurlErrors::classify($errno, curl_error($handle), $info, $transfer->spec->maxResponseBytes);
    }

    /** A transfer left curl: start those that waited for its stream. */
    private function startReady(Transfer $settled, int $httpVersion, bool $openedConnection): void
    {
        foreach ($this->gate->settled($settled, $httpVersion, $openedConnection) as $next) {
            $this->launch($next);
        }
    }

    /**
     * Callbacks of a streamed transfer (set with STREAMED_OUTPUT). They only record: the
     * transfer is settled after curl_multi_exec() returns, since user code run from inside a
     * curl callback must not call curl again.
     *
     * @return array<int, mixed>
     */
    private function streaming(Transfer $transfer, BodyBuffer $buffer, int $id): array
    {
        return [
            \CURLOPT_HEADERFUNCTION => $transfer->stopsAtHead()
                ? static fn($ch, string $line): int => $transfer->receiveHeadOnly($line)
                : $transfer->headerLine(...),
            \CURLOPT_WRITEFUNCTION => function ($ch, string $chunk) use ($transfer, $buffer, $id): int {
                if (!$transfer->isSettled()) {
                    $this->headersIn[$id] = $transfer;
                }
                $this->bodyArrived = true;
                if ($transfer->spec->maxResponseBytes !== null && $buffer->received() + \strlen($chunk) > $transfer->spec->maxResponseBytes) {
                    return 0; // CURLE_WRITE_ERROR, reported as ResponseTooLargeException
                }

                return $buffer->write($chunk);
            },
        ];
    }


    /**
     * A connection that died while idle shows up on its first reuse. Retry once, on a fresh
     * connection, and only what is safe to send twice: a POST is never silently re-sent.
     *
     * @param array<string, mixed> $info
     */
    private function shouldRetry(Transfer $transfer, int $errno, array $info): bool
    {
        return $transfer->attempts() === 1
            && !$transfer->isSettled()
            && CurlErrors::isDeadConnection($errno)
            && $info['num_connects'] === 0
            && $transfer->spec->resendable;
    }

    /** @return array<int, mixed> */
    private static function sizeGuard(CappedBuffer $buffer): array
    {
        $buffer->clear();

        return [
            \CURLOPT_RETURNTRANSFER => false,
            \CURLOPT_WRITEFUNCTION => static fn(\CurlHandle $ch, string $chunk): int => $buffer->write($ch, $chunk),
        ];
    }

    private function recycle(\CurlHandle $handle, ?Transfer $transfer = null): void
    {
        if (\count($this->spare) + $this->keptCount >= self::SPARE_HANDLES) {
            return; // dropped: curl frees it
        }
        $profile = $transfer?->spec->profile;
        if ($profile !== null && $transfer->attempts() === 1) {
            // Launched with its profile's options and nothing else (launch()): kept as they are;
            // a streamed transfer's callbacks hold it (and its caller's answer): cleared.
            if ($transfer->streamedBody !== null) {
                curl_setopt($handle, \CURLOPT_HEADERFUNCTION, null);
                curl_setopt($handle, \CURLOPT_WRITEFUNCTION, null);
            }
            $this->kept[$profile][] = [$handle, $transfer->spec->url, $transfer->spec->perTransfer, $transfer->streamedBody !== null];
            ++$this->keptCount;

            return;
        }
        if ($transfer === null || $transfer->usesCallbacks()) {
            // Callbacks hold closures (and the objects they capture): clear them before the
            // reset, as Guzzle does, so nothing of one request survives into the next.
            curl_setopt($handle, \CURLOPT_READFUNCTION, null);
            curl_setopt($handle, \CURLOPT_XFERINFOFUNCTION, null);
            curl_setopt($handle, \CURLOPT_HEADERFUNCTION, null);
            curl_setopt($handle, \CURLOPT_WRITEFUNCTION, null);
        }
        curl_reset($handle);
        $this->spare[] = $handle;
    }
}
