<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * A scenario or the bench setup failed: the message says which request or option and why.
 *
 * @internal bench tooling
 */
final class BenchException extends \RuntimeException
{
    public static function badResponse(string $scenario, string $url, int|string $status): self
    {
        return new self(\sprintf('Scenario %s: %s answered %s, expected status 200.', $scenario, $url, $status));
    }
}
