<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use WarmHttp\Rig\PhpFpm;

/**
 * Requests fpm/first-call.php and returns the time the endpoint measured for its call.
 *
 * @internal benchmark tooling
 */
final class FpmCall
{
    public function __construct(private readonly PhpFpm $fpm) {}

    /** @param 'sync'|'cold'|'relay-only'|'hop-floor' $mode */
    public function firstCallMs(string $mode): float
    {
        $handle = curl_init($this->fpm->url('/first-call.php?mode=' . $mode));
        curl_setopt_array($handle, [\CURLOPT_RETURNTRANSFER => true, \CURLOPT_TIMEOUT => 30]);
        $body = curl_exec($handle);
        $answer = \is_string($body) ? json_decode($body, true) : null;
        if (!\is_array($answer) || 200 !== ($answer['status'] ?? null) || !\is_float($answer['ms'] ?? null)) {
            throw new \RuntimeException(\sprintf('The FPM endpoint (mode=%s) failed: %s %s', $mode, \is_string($body) ? mb_strimwidth($body, 0, 300, '…') : curl_error($handle), mb_strimwidth($this->fpm->errorLog(), 0, 300, '…')));
        }

        return $answer['ms'];
    }
}
