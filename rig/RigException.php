<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * A rig component could not start or answer.
 *
 * @internal test/bench tooling
 */
final class RigException extends \RuntimeException {}
