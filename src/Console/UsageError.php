<?php

declare(strict_types=1);

namespace WarmHttp\Console;

/**
 * A command was called wrongly (an unknown --format, a malformed option): exit code 2
 * (Command::INVALID), the message names the option, what it takes and what came.
 *
 * @internal
 */
final class UsageError extends \InvalidArgumentException {}
