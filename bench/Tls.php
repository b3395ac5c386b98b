<?php

declare(strict_types=1);

namespace WarmHttp\Bench;

/**
 * How every scenario verifies the server: the rig's CA, the user's CA file, or no check.
 *
 * @internal bench tooling
 */
final readonly class Tls
{
    public function __construct(public ?string $caFile, public bool $verify = true) {}
}
