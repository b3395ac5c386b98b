<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Target;

use WarmHttp\Bench\Network;
use WarmHttp\Bench\Tls;

/**
 * Where the scenarios send their requests: the rig (fresh latency proxies per run, so every
 * run starts cold) or the user's own URL.
 *
 * @internal bench tooling
 */
interface Targets
{
    public function onRig(): bool;

    public function tls(): Tls;

    /** The network the limits are computed from (server time 0; groups set their own). */
    public function network(): Network;

    /** One line for people: what is measured against, and how connections are counted. */
    public function describe(): string;

    public function open(int $origins): Target;

    /** A URL with no added latency for the CPU group, or null when there is none (--url). */
    public function directUrl(string $path): ?string;
}
