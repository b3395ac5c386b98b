<?php

declare(strict_types=1);

// Router for PhpOrigin (php -S): what the rig's nginx does not serve — cookies and gzip.
$uri = $_SERVER['REQUEST_URI'] ?? '/';
$path = parse_url(is_string($uri) ? $uri : '/', \PHP_URL_PATH);
$cookie = $_SERVER['HTTP_COOKIE'] ?? '';
header('Content-Type: text/plain');
match ($path) {
    '/cookie/set' => (static function (): void {
        header('Set-Cookie: session=warm; Path=/');
        echo 'set';
    })(),
    '/cookie/echo' => print(is_string($cookie) ? $cookie : ''),
    '/gzip' => (static function (): void {
        $body = gzencode(str_repeat('warm connections ', 64));
        header('Content-Encoding: gzip');
        header('Content-Length: ' . strlen((string) $body));
        echo $body;
    })(),
    default => (static function (): void {
        http_response_code(404);
        echo 'not found';
    })(),
};
