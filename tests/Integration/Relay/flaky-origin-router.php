<?php

// Router for `php -S`: answers 503 (or the code in DIR/mode) until DIR/mode says 200, and
// appends "method uri idempotency-key status" per request to DIR/requests.log.
declare(strict_types=1);

$dir = (string) getenv('FLAKY_DIR');
$status = (int) trim((string) @file_get_contents($dir . '/mode')) ?: 503;
$server = static fn(string $name, string $default): string => is_string($_SERVER[$name] ?? null) ? $_SERVER[$name] : $default;
$uri = $server('REQUEST_URI', '');
$key = $server('HTTP_IDEMPOTENCY_KEY', '-');
file_put_contents($dir . '/requests.log', sprintf("%s %s %s %d %.3f\n", $server('REQUEST_METHOD', ''), $uri, $key, $status, microtime(true)), \FILE_APPEND | \LOCK_EX);
http_response_code($status);
if ($status === 429) {
    header('Retry-After: 1');
}
echo "status $status\n";
