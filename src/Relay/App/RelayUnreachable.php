<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The relay could not be reached, or broke off before answering.
 *
 * @internal
 */
final class RelayUnreachable extends \RuntimeException {}
