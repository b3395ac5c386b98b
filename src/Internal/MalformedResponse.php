<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The response's head could not be read as HTTP; the message completes "METHOD URL failed: …".
 *
 * @internal
 */
final class MalformedResponse extends \RuntimeException {}
