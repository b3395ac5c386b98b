<?php

// Router for `php -S` (RelayStorageOrigin): answers with the status and the number of body bytes
// in DIR/mode ("200 0" unless told otherwise) and appends one JSON line per request to
// DIR/requests.log: method, uri, status, and the raw header values and body, base64-encoded so
// that bytes which are not UTF-8 are kept exactly.
declare(strict_types=1);

$dir = (string) getenv('STORAGE_ORIGIN_DIR');
[$status, $bytes] = array_map('intval', explode(' ', trim((string) @file_get_contents($dir . '/mode'))) + [200, 0]);
$headers = [];
$received = getallheaders();
foreach (is_array($received) ? $received : [] as $name => $value) {
    $headers[strtolower(is_string($name) ? $name : '')] = base64_encode(is_string($value) ? $value : '');
}
$line = json_encode([
    'method' => $_SERVER['REQUEST_METHOD'] ?? '',
    'uri' => $_SERVER['REQUEST_URI'] ?? '',
    'status' => $status,
    'headers' => $headers,
    'body' => base64_encode((string) file_get_contents('php://input')),
], JSON_THROW_ON_ERROR);
file_put_contents($dir . '/requests.log', $line . "\n", FILE_APPEND | LOCK_EX);
http_response_code($status ?: 200);
header('Content-Length: ' . $bytes);
echo str_repeat('x', $bytes);
