<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * What the raw origin does with one request: which bytes, after how long, and what happens to
 * the connection afterwards.
 *
 * @internal test/bench tooling
 */
final class OriginReply
{
    public const KEEP = 'keep';
    public const FIN = 'fin';
    public const RST = 'rst';
    public const STALL = 'stall';

    /**
     * @param self::KEEP|self::FIN|self::RST|self::STALL $then
     * @param self::FIN|self::RST|null                   $doom how to kill this connection's next request
     */
    public function __construct(
        public readonly string $bytes,
        public readonly string $then = self::KEEP,
        public readonly float $delayMs = 0.0,
        public readonly ?string $doom = null,
        public readonly ?string $armAll = null,
    ) {}

    /**
     * @param array<string, string> $headers
     */
    public static function http(int $status, string $body, array $headers = [], string $reason = 'OK'): string
    {
        $head = \sprintf("HTTP/1.1 %d %s\r\nContent-Length: %d\r\n", $status, $reason, \strlen($body));
        foreach ($headers as $name => $value) {
            $head .= $name . ': ' . $value . "\r\n";
        }

        return $head . "\r\n" . $body;
    }
}
