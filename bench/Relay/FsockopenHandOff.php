<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

/**
 * The PHP half of seeds/004's Node forwarder, as the article's snippet does it: a new TCP
 * connection per call (fsockopen, 0.1 s connect timeout), the POST written with
 * Connection: close, and the socket closed without reading the answer, so the caller never
 * learns whether the forwarder took the request.
 *
 * @internal benchmark tooling
 */
final class FsockopenHandOff
{
    /** @return bool false when the connection or the write failed (the article logs and moves on) */
    public static function send(string $url, string $json): bool
    {
        $host = (string) parse_url($url, \PHP_URL_HOST);
        $socket = @fsockopen($host, (int) parse_url($url, \PHP_URL_PORT), $errno, $errstr, 0.1);
        if ($socket === false) {
            return false;
        }
        $query = parse_url($url, \PHP_URL_QUERY);
        $request = 'POST ' . (string) parse_url($url, \PHP_URL_PATH) . (\is_string($query) ? '?' . $query : '') . " HTTP/1.1\r\n"
            . "Host: localhost\r\n"
            . "Content-Type: application/json\r\n"
            . 'Content-Length: ' . \strlen($json) . "\r\n"
            . "Connection: Close\r\n\r\n"
            . $json;
        $written = @fwrite($socket, $request);
        fclose($socket);

        return $written === \strlen($request);
    }
}
