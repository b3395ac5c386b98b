<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Guard;

/**
 * DNS gave no address for the destination: a network error, retried like one.
 *
 * @internal
 */
final class UnresolvableHost extends \RuntimeException {}
