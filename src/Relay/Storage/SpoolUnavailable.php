<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Storage;

/**
 * The spool could not store a request (disk full, I/O error): the relay answers 507 and the
 * caller falls back, since nothing may be acknowledged that was not stored.
 *
 * @internal
 */
final class SpoolUnavailable extends \RuntimeException {}
