<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use Psr\Http\Message\ResponseInterface;
use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Tls;

/**
 * @internal bench tooling
 */
final class WarmHttpOptions
{
    /** @return array<string, mixed> */
    public static function for(Tls $tls): array
    {
        return $tls->caFile === null ? ['verify' => $tls->verify] : ['verify' => $tls->verify, 'cafile' => $tls->caFile];
    }

    public static function check(mixed $outcome, string $scenario, string $url): void
    {
        if ($outcome instanceof \Throwable) {
            throw new BenchException(\sprintf('Scenario %s: %s failed: %s', $scenario, $url, $outcome->getMessage()), 0, $outcome);
        }
        $status = $outcome instanceof ResponseInterface ? $outcome->getStatusCode() : get_debug_type($outcome);
        if ($status !== 200) {
            throw BenchException::badResponse($scenario, $url, $status);
        }
    }
}
