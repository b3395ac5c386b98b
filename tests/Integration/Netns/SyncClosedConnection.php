<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Netns;

/** The relay closed the caller's connection before an answer was complete (SyncCaller). */
final class SyncClosedConnection extends \RuntimeException {}
