<?php

// opcache.preload for the bench's PHP-FPM pool (FpmBench, the preload row): the classes a
// relay_sync first call loads (Client construction, createRequest, the kept-stream hop and the
// response: 27 files with their interfaces, get_included_files() in fpm/first-call.php's sync
// mode), linked once when the pool starts instead of autoloaded by every FPM request. The same
// idea fits an app: preload what its requests load (docs/relay.md, PHP-FPM).
declare(strict_types=1);

require dirname(__DIR__, 2) . '/vendor/autoload.php';

foreach ([
    WarmHttp\Client::class,
    WarmHttp\Internal\Options::class,
    WarmHttp\Internal\LazyRequest::class,
    WarmHttp\Internal\MemoryStream::class,
    WarmHttp\Internal\RequestGuard::class,
    WarmHttp\Internal\ResponseParser::class,
    WarmHttp\Internal\ParsedResponse::class,
    WarmHttp\Response::class,
    WarmHttp\Relay\App\RelayAddress::class,
    WarmHttp\Relay\App\SyncRoute::class,
    WarmHttp\Relay\Outbound\SyncSettings::class,
    WarmHttp\Relay\App\SyncStream::class,
    WarmHttp\Relay\App\RelayConnection::class,
    WarmHttp\Relay\App\SyncRequestBytes::class,
    WarmHttp\Relay\App\HopClock::class,
    WarmHttp\Relay\App\SyncAnswerReader::class,
    WarmHttp\Relay\App\SyncBody::class,
    WarmHttp\Relay\App\DeferredSends::class,
] as $class) {
    class_exists($class);
}
