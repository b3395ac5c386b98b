<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * The fallback journal cannot take an entry (directory unusable, full, disk error); the
 * message says what to fix.
 *
 * @internal
 */
final class JournalUnwritable extends \RuntimeException {}
