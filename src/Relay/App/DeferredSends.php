<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

// Functions imported by name: a call site's first call in a PHP request skips the namespaced
// lookup (a relay_sync first call under FPM ~3 k instructions less over the App files, callgrind).
use function array_map;
use function microtime;

use Psr\Log\LoggerInterface;

use function register_shutdown_function;

use WarmHttp\Internal\ErrorLogLogger;
use WarmHttp\Relay\Worker\Decision;
use WarmHttp\Relay\Worker\Verdict;

/**
 * Sends what the relay did not take, at the end of the current unit of work: after the
 * response under PHP-FPM (fastcgi_finish_request()), on Pool::reset() in worker mode, after
 * a Laravel request or queued job (the service provider), and at shutdown as a last resort.
 * Journaled entries of any process are picked up too, so one whose send failed is retried by
 * the next unit of work of whichever process comes next; requests held in memory (only when the
 * journal could not be written) get one attempt.
 *
 * Process-wide, so every Client's fallbacks go out in one pass on the shared warm pool.
 *
 * @internal
 */
final class DeferredSends
{
    /** Entries sent per flush: a unit of work's tail stays bounded; the rest go next time. */
    private const BATCH = 500;

    /**
     * The longest delay between two attempts of one entry (FallbackSender's retry cap). Here, so a
     * flush that finds nothing to send (every PHP-FPM request's) does not load FallbackSender.
     */
    public const RETRY_CAP_SECONDS = 300.0;

    /** @var list<array{FallbackEntry, LoggerInterface}> */
    private static array $memory = [];

    /**
     * journal directory => its Client's logger (null: error_log); the default directory is
     * under DEFAULT_DIR until a flush (or journal()) names it.
     *
     * @var array<string, ?LoggerInterface>
     */
    private static array $journals = [];

    /**
     * The key of the default journal before its directory is asked for: a Client without
     * relay_fallback_dir then costs no geteuid() and loads neither JournalMarker nor ProcessUser
     * (two files less per PHP-FPM request) until the unit of work ends.
     */
    private const DEFAULT_DIR = '';

    /**
     * Journals opened, when first written to or found due: a PHP-FPM request whose request the
     * relay took only stats the marker (JournalMarker) and loads neither FallbackJournal nor
     * FallbackSender.
     *
     * @var array<string, FallbackJournal>
     */
    private static array $opened = [];

    /** @var array<string, true> journals written to since their last scan */
    private static array $dirty = [];

    private static bool $registered = false;

    private static bool $flushing = false;

    private static ?FallbackSender $sender = null;

    /**
     * A journal this process uses (or its directory; null: the default one): flushes scan it.
     * Costs nothing until a flush: without a logger of the Client's, the error_log one is made
     * only when there is something to say (every relay Client watches, once per PHP-FPM request:
     * 4 files of psr/log less).
     */
    public static function watch(FallbackJournal|string|null $journal, ?LoggerInterface $logger = null): void
    {
        if ($journal instanceof FallbackJournal) {
            self::$opened[$journal->dir] ??= $journal;
        }
        $dir = $journal instanceof FallbackJournal ? $journal->dir : ($journal ?? self::DEFAULT_DIR);
        if (!isset(self::$journals[$dir])) {
            self::$journals[$dir] = $logger; // the first Client's logger; one without, replaced
        }
        self::register();
    }

    /** The default journal's directory in place of its placeholder, once: a flush or journal() needs it. */
    private static function nameDefaultDirectory(): void
    {
        if (!\array_key_exists(self::DEFAULT_DIR, self::$journals)) {
            return;
        }
        $logger = self::$journals[self::DEFAULT_DIR];
        unset(self::$journals[self::DEFAULT_DIR]);
        $dir = JournalMarker::defaultDirectory();
        if (!isset(self::$journals[$dir])) {
            self::$journals[$dir] = $logger;
        }
    }

    /** The process's journal in $dir (null: the default one), watched: the instance flushes scan. */
    public static function journal(?string $dir, ?LoggerInterface $logger = null): FallbackJournal
    {
        $dir ??= JournalMarker::defaultDirectory();
        self::watch($dir, $logger);
        self::nameDefaultDirectory();

        return self::$opened[$dir] ??= new FallbackJournal($dir);
    }

    public static function journaled(FallbackJournal $journal): void
    {
        self::$dirty[$journal->dir] = true;
    }

    /** The journal could not be written: one attempt at the end of the unit of work, in memory. */
    public static function keep(FallbackEntry $entry, LoggerInterface $logger): void
    {
        self::$memory[] = [$entry, $logger];
        self::register();
    }

    /** Requests held in memory only (not journaled). */
    public static function pending(): int
    {
        return \count(self::$memory);
    }

    /** Sends what is due: the unit of work is over. Cheap when there is nothing to do. */
    public static function flush(): void
    {
        if (self::$flushing || (self::$memory === [] && self::$journals === [])) {
            return;
        }
        self::$flushing = true;
        try {
            self::nameDefaultDirectory();
            self::sendFromMemory();
            $now = microtime(true);
            foreach (self::$journals as $dir => $logger) {
                if (isset(self::$dirty[$dir]) || JournalMarker::due($dir, $now, self::RETRY_CAP_SECONDS)) {
                    unset(self::$dirty[$dir]);
                    self::sendFromJournal(self::$opened[$dir] ??= new FallbackJournal($dir), $logger ?? new ErrorLogLogger());
                }
            }
        } finally {
            self::$flushing = false;
        }
    }

    private static function register(): void
    {
        if (!self::$registered) {
            self::$registered = true;
            register_shutdown_function(self::flush(...));
        }
    }

    private static function sendFromMemory(): void
    {
        if (self::$memory === []) {
            return;
        }
        self::finishResponse();
        $held = self::$memory;
        self::$memory = [];
        $decisions = self::sender()->send(array_map(static fn(array $e): FallbackEntry => $e[0], $held));
        foreach ($decisions as $i => $decision) {
            [$entry, $logger] = $held[$i];
            $context = self::context($entry) + ['outcome' => $decision->reason];
            $decision->verdict === Verdict::Delivered
                ? $logger->info('Deferred dispatch sent', $context)
                : $logger->error('Deferred dispatch FAILED and is LOST: it was held in memory only (the fallback journal could not be written)', $context);
        }
    }

    private static function sendFromJournal(FallbackJournal $journal, LoggerInterface $logger): void
    {
        try {
            $names = $journal->due(microtime(true), self::RETRY_CAP_SECONDS, self::BATCH);
        } catch (JournalUnwritable $e) {
            $logger->error('The fallback journal cannot be read: ' . $e->getMessage());

            return;
        }
        $damaged = static fn(string $name, string $why) => $logger->error('A damaged fallback journal entry was moved to dead/', ['entry' => $name, 'error' => $why, 'dir' => $journal->dir]);
        $leases = [];
        foreach ($names as $name) {
            if (($lease = $journal->take($name, $damaged)) !== null) {
                $leases[] = $lease;
            }
        }
        if ($leases !== []) {
            self::finishResponse();
            $decisions = self::sender()->send(array_map(static fn(FallbackLease $l): FallbackEntry => $l->entry, $leases));
            foreach ($decisions as $i => $decision) {
                self::record($journal, $leases[$i], $decision, $logger);
            }
        }
        $journal->scanned(microtime(true));
    }

    private static function record(FallbackJournal $journal, FallbackLease $lease, Decision $decision, LoggerInterface $logger): void
    {
        $attempts = $lease->entry->request->attempts + 1;
        $context = self::context($lease->entry) + ['attempts' => $attempts, 'outcome' => $decision->reason, 'entry' => $lease->name];
        match ($decision->verdict) {
            Verdict::Delivered => $journal->delivered($lease),
            Verdict::Retry => $journal->later($lease, $attempts, $decision->retryAt),
            Verdict::Dead => $journal->dead($lease, $decision->reason),
        };
        match ($decision->verdict) {
            Verdict::Delivered => $logger->info('Deferred dispatch sent', $context),
            Verdict::Retry => $logger->warning('Deferred dispatch failed; it stays in the fallback journal and is retried by a later unit of work', $context + ['retry_at' => $decision->retryAt]),
            Verdict::Dead => $logger->error('Deferred dispatch GAVE UP: moved to the fallback journal\'s dead letters', $context + ['dead_letters' => $journal->dir . '/dead']),
        };
    }

    /** @return array<string, string> */
    private static function context(FallbackEntry $entry): array
    {
        return ['method' => $entry->request->method, 'uri' => $entry->request->uri, 'idempotency_key' => $entry->request->idempotencyKey];
    }

    /** Under PHP-FPM the browser gets its response before we take our time. */
    private static function finishResponse(): void
    {
        if (\PHP_SAPI === 'fpm-fcgi' && \function_exists('fastcgi_finish_request')) {
            fastcgi_finish_request();
        }
    }

    private static function sender(): FallbackSender
    {
        return self::$sender ??= new FallbackSender();
    }
}
