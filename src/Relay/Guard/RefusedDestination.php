<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Guard;

/**
 * The destination resolves to an address the relay does not connect to (SSRF guard).
 *
 * @internal
 */
final class RefusedDestination extends \RuntimeException {}
