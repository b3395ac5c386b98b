<?php

// One unit of work of an app process, for FallbackDurabilityTest: dispatches FALLBACK_URL (when
// given) through the relay at FALLBACK_RELAY, journaling in FALLBACK_DIR; then, by FALLBACK_END,
// "exit" (the shutdown flush), "kill" (SIGKILL: no flush at all) or "reset" (Pool::reset(), the
// end of a worker's request, then exit). Log lines go to stderr.
declare(strict_types=1);

require dirname(__DIR__, 4) . '/vendor/autoload.php';

$logger = new class extends Psr\Log\AbstractLogger {
    /** @param array<mixed> $context */
    public function log($level, string|Stringable $message, array $context = []): void
    {
        fwrite(\STDERR, sprintf("%s %s %s\n", is_scalar($level) ? (string) $level : '?', $message, json_encode($context, \JSON_UNESCAPED_SLASHES)));
    }
};
$client = new WarmHttp\Client([
    'relay' => (string) getenv('FALLBACK_RELAY'),
    'relay_allow_private_networks' => true,
    'relay_fallback_dir' => (string) getenv('FALLBACK_DIR'),
    'logger' => $logger,
    'timeout' => 5,
]);
$url = (string) getenv('FALLBACK_URL');
if ($url !== '') {
    $request = $client->createRequest('POST', $url)->withBody($client->createStream('payload'));
    $key = (string) getenv('FALLBACK_KEY');
    $client->dispatch($key !== '' ? $request->withHeader('Idempotency-Key', $key) : $request);
}
// Without FALLBACK_URL the process dispatches nothing: a Client with a relay is enough for the
// end of its unit of work to send other processes' journaled entries.
match ((string) getenv('FALLBACK_END')) {
    'kill' => posix_kill((int) getmypid(), \SIGKILL),
    'reset' => WarmHttp\Pool::reset(),
    default => null,
};
echo "done\n";
