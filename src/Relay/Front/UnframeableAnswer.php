<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * The destination's head leaves its body's length ambiguous (Transfer-Encoding beside
 * Content-Length, lengths that differ or are no number) or announces no final answer: passed
 * on, the caller and the relay could disagree on where the answer ends, so the caller gets a
 * 502 instead.
 *
 * @internal
 */
final class UnframeableAnswer extends \RuntimeException {}
