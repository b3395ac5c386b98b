<?php

declare(strict_types=1);

// Loaded on every request by Composer's autoloader ("autoload.files"): costs one class lookup
// when php-http/discovery is absent, and loads nothing of ours until discovery runs.
//
// Prepended, not appended: discovery's built-in list puts Symfony HttpClient and Guzzle first,
// and Guzzle is often installed only for WarmHttp's own Guzzle handler (or by another SDK). An
// application that installed WarmHttp wants its SDKs on the warm pool, so WarmHttp answers
// before those. The root project's own "extra.discovery" choice still wins (see Strategy).
if (class_exists(Http\Discovery\ClassDiscovery::class)) {
    Http\Discovery\ClassDiscovery::prependStrategy(WarmHttp\Bridge\Discovery\Strategy::class);
}
