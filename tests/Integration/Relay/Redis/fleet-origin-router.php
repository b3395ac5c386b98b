<?php

// Router for `php -S` (with PHP_CLI_SERVER_WORKERS): answers DIR/mode's status (200 unless
// told), after DIR/delay milliseconds, and appends "id key start end status" per request to
// DIR/requests.log once it has answered, so a test can count deliveries by id and overlaps.
declare(strict_types=1);

$dir = (string) getenv('FLEET_ORIGIN_DIR');
$start = microtime(true);
$status = (int) trim((string) @file_get_contents($dir . '/mode')) ?: 200;
$delay = (int) trim((string) @file_get_contents($dir . '/delay'));
if ($delay > 0) {
    usleep($delay * 1000);
}
$server = static fn(string $name): string => is_string($_SERVER[$name] ?? null) ? $_SERVER[$name] : '-';
parse_str((string) parse_url($server('REQUEST_URI'), \PHP_URL_QUERY), $query);
$id = is_string($query['id'] ?? null) ? $query['id'] : '-';
http_response_code($status);
echo "status $status\n";
file_put_contents($dir . '/requests.log', sprintf("%s %s %.6f %.6f %d\n", $id, $server('HTTP_IDEMPOTENCY_KEY'), $start, microtime(true), $status), \FILE_APPEND | \LOCK_EX);
