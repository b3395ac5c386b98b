<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\BenchException;
use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;

/**
 * seeds/001: PHP's https:// stream wrapper. It sends "Connection: close", so every request
 * opens a connection and does a full TLS handshake.
 *
 * @internal bench tooling
 */
final class FileGetContents implements Scenario
{
    public function name(): string
    {
        return 'file-get-contents';
    }

    public function label(): string
    {
        return 'file_get_contents (stream wrapper)';
    }

    public function unavailableReason(): ?string
    {
        return \extension_loaded('openssl') ? null : 'the openssl extension is not loaded';
    }

    public function open(Tls $tls): \Closure
    {
        $ssl = ['verify_peer' => $tls->verify, 'verify_peer_name' => $tls->verify];
        if ($tls->caFile !== null) {
            $ssl['cafile'] = $tls->caFile;
        }
        $context = stream_context_create(['ssl' => $ssl, 'http' => ['ignore_errors' => true, 'timeout' => 30]]);

        return function (string ...$urls) use ($context): void {
            foreach ($urls as $url) {
                $body = @file_get_contents($url, false, $context);
                $status = $http_response_header[0] ?? '';
                if ($body === false || !str_contains($status, ' 200')) {
                    throw BenchException::badResponse($this->name(), $url, $status === '' ? (error_get_last()['message'] ?? 'nothing') : $status);
                }
            }
        };
    }
}
