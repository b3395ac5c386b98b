<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

/**
 * An option given to a WarmHttp constructor is unknown or of the wrong type or range.
 */
final class InvalidOptionException extends \InvalidArgumentException {}
