<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * The raw origin's endpoints: each path picks a (mis)behaviour nginx cannot produce.
 *
 * @internal test/bench tooling
 */
final class OriginRoutes
{
    public static function reply(OriginRequest $request): OriginReply
    {
        return match ($request->path) {
            '/ok' => self::ok($request),
            '/echo' => new OriginReply(OriginReply::http(200, $request->head . $request->body, ['Content-Type' => 'text/plain'])),
            '/close' => new OriginReply(OriginReply::http(200, 'ok', ['Connection' => 'close']), OriginReply::FIN),
            '/arm-dead-reuse' => new OriginReply(OriginReply::http(200, 'armed'), armAll: self::how($request)),
            '/reset-mid-body' => new OriginReply(self::head(100000) . str_repeat('x', 1000), OriginReply::RST),
            '/truncated' => new OriginReply(self::head(100) . str_repeat('x', 10), OriginReply::FIN),
            '/malformed-status' => new OriginReply("HTTP/1.1 abc Nope\r\nContent-Length: 2\r\n\r\nok", OriginReply::FIN),
            '/garbage' => new OriginReply("\x00\x01\x02 this is not HTTP \xff\xfe\r\n\r\n", OriginReply::FIN),
            '/bad-header' => new OriginReply("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nThis line has no colon\r\nX-Bad: \x00\x7f\r\n\r\nok", OriginReply::FIN),
            '/stall' => new OriginReply('', OriginReply::STALL),
            '/stall-mid-body' => new OriginReply(self::head(100000) . str_repeat('s', 1000), OriginReply::STALL),
            '/slow-headers' => new OriginReply(OriginReply::http(200, 'ok'), delayMs: (float) $request->query('ms', '0')),
            default => new OriginReply(OriginReply::http(404, 'not found')),
        };
    }

    private static function ok(OriginRequest $request): OriginReply
    {
        $then = $request->query('then');
        $doom = \in_array($then, ['die', 'fin'], true) ? OriginReply::FIN : ($then === 'rst' ? OriginReply::RST : null);

        return new OriginReply(OriginReply::http(200, 'ok', ['Content-Type' => 'text/plain']), doom: $doom);
    }

    /**
     * @return OriginReply::FIN|OriginReply::RST
     */
    private static function how(OriginRequest $request): string
    {
        return $request->query('how') === 'rst' ? OriginReply::RST : OriginReply::FIN;
    }

    private static function head(int $contentLength): string
    {
        return "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {$contentLength}\r\n\r\n";
    }
}
