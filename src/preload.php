<?php

/*
 * opcache.preload for PHP-FPM (docs/relay.md, "PHP-FPM"): links, once when the pool starts,
 * the classes an FPM request loads to call out with WarmHttp, so no request autoloads them:
 * a relay_sync first call (Client construction, createRequest, the kept-stream hop to the
 * relay, the response), a dispatch() hand-off to the relay, and a direct sendRequest() on the
 * curl pool. Without preload each FPM request autoloads and links them anew (27 files for a
 * relay_sync first call).
 *
 * Use it as opcache.preload itself, or require it from the app's own preload script after
 * vendor/autoload.php. Preloaded code is not revalidated: restart FPM after a deploy. As root,
 * PHP also needs opcache.preload_user.
 *
 * Only classes of the package's required dependencies are named here: no bridge (Guzzle,
 * Laravel, HTTPlug), whose packages are optional. PreloadScriptTest preloads it.
 */

declare(strict_types=1);

(static function (): void {
    if (!class_exists(WarmHttp\Client::class)) {
        // Not required from an app's preload script that set up autoloading: find Composer's.
        // Installed as a dependency this file is vendor/warmhttp/warmhttp/src/preload.php.
        foreach ([dirname(__DIR__, 3) . '/autoload.php', dirname(__DIR__) . '/vendor/autoload.php'] as $autoload) {
            if (is_file($autoload)) {
                require_once $autoload;
                break;
            }
        }
        if (!class_exists(WarmHttp\Client::class)) {
            // E.g. the package symlinked in by a Composer path repository: __DIR__ is then its
            // real path, away from the app's vendor/. Say so rather than preload nothing.
            trigger_error('WarmHttp preload: no Composer autoloader found; require this file after your vendor/autoload.php', \E_USER_WARNING);

            return;
        }
    }
    foreach ([
        // every call: the Client, its options, createRequest()
        WarmHttp\Client::class,
        WarmHttp\Internal\Options::class,
        WarmHttp\Internal\LazyRequest::class,
        WarmHttp\Internal\MemoryStream::class,
        WarmHttp\Internal\RequestGuard::class,
        WarmHttp\Internal\ResponseParser::class,
        WarmHttp\Internal\ParsedResponse::class,
        WarmHttp\Response::class,
        WarmHttp\Exception\RequestException::class,
        WarmHttp\Exception\NetworkException::class,
        WarmHttp\Exception\TimeoutException::class,
        // relay_sync over the kept stream
        WarmHttp\Relay\App\RelayAddress::class,
        WarmHttp\Relay\App\SyncRoute::class,
        WarmHttp\Relay\Outbound\SyncSettings::class,
        WarmHttp\Relay\App\SyncStream::class,
        WarmHttp\Relay\App\RelayConnection::class,
        WarmHttp\Relay\App\SyncRequestBytes::class,
        WarmHttp\Relay\App\HopClock::class,
        WarmHttp\Relay\App\SocketOwnership::class,
        WarmHttp\Relay\App\ProcessUser::class,
        WarmHttp\Relay\App\SyncAnswerReader::class,
        WarmHttp\Relay\App\SyncBody::class,
        WarmHttp\Relay\App\DeferredSends::class,
        // dispatch()
        WarmHttp\Relay\App\Dispatcher::class,
        WarmHttp\Relay\App\RelaySocket::class,
        WarmHttp\Relay\Wire\WireEncoder::class,
        // a direct sendRequest() on the curl pool
        WarmHttp\Internal\CurlPool::class,
        WarmHttp\Internal\CurlOptions::class,
        WarmHttp\Internal\CurlInfo::class,
        WarmHttp\Internal\ConnectionOwners::class,
        WarmHttp\Internal\ContentCodings::class,
        WarmHttp\Internal\ProxyOption::class,
        WarmHttp\Internal\TlsVersions::class,
        WarmHttp\Internal\UserAgent::class,
        WarmHttp\Internal\MultiplexGate::class,
        WarmHttp\Internal\PoolCounters::class,
        WarmHttp\Internal\Psr7Exchange::class,
        WarmHttp\Internal\Transfer::class,
        WarmHttp\Internal\TransferSpec::class,
        // requests that are not as createRequest() made them (with*(), a body)
        Nyholm\Psr7\Request::class,
        Nyholm\Psr7\Uri::class,
    ] as $class) {
        class_exists($class);
    }
})();
