<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

use WarmHttp\Internal\FailureKind;
use WarmHttp\Relay\Outbound\UpstreamFailure;
use WarmHttp\Relay\Wire\WireResponse;

/**
 * The relay's own answer to a sync request that got no response from its destination. Besides
 * X-WarmHttp-Error it names the failure's kind, so the Client throws what a direct call would
 * have thrown (SyncExchange): "X-WarmHttp-Failure: timeout 28" (kind, then libcurl's error
 * number, 0 when the relay itself decided) and "X-WarmHttp-Failure-Detail", the words that
 * complete "METHOD URL failed: …". A destination's answer never carries X-WarmHttp-* headers
 * (HeaderFilter::forCaller drops them), so these cannot be forged by the destination.
 *
 * Kinds: network, timeout, too-large, request (sending it again cannot help), refused (the
 * destination guard's refusal).
 *
 * @internal
 */
final class SyncFailure
{
    public const HEADER = 'X-WarmHttp-Failure';
    public const DETAIL = 'X-WarmHttp-Failure-Detail';

    /** Longer details are cut: a header line, not a log. */
    private const DETAIL_BYTES = 2000;

    /** @param string $describedPrefix "METHOD URL failed: ", how the failure's message starts (TransferSpec::describe) */
    public static function upstream(UpstreamFailure $failure, string $describedPrefix): string
    {
        $message = $failure->getMessage();
        $what = str_starts_with($message, $describedPrefix) ? substr($message, \strlen($describedPrefix)) : $message;
        $what = str_ends_with($what, '.') ? substr($what, 0, -1) : $what;
        [$status, $kind] = match ($failure->kind) {
            FailureKind::Timeout => [504, 'timeout'],
            FailureKind::TooLarge => [502, 'too-large'],
            FailureKind::Request => [502, 'request'],
            FailureKind::Network => [502, 'network'],
        };

        return self::answer($status, $kind, $what, $failure->getCode());
    }

    /** @param string $kind one of the kinds above */
    public static function answer(int $status, string $kind, string $what, int $curlErrno = 0): string
    {
        $detail = str_replace(["\r", "\n", "\0"], ' ', substr($what, 0, self::DETAIL_BYTES));

        return WireResponse::relayError($status, $what, false, [
            [self::HEADER, $kind . ' ' . $curlErrno],
            [self::DETAIL, $detail],
        ]);
    }
}
