<?php

declare(strict_types=1);

// Usage: php scenarios.php SCENARIO NGINX_H2_BASE_URL CAFILE
// Runs one OpenTelemetryContextTest scenario with the OpenTelemetry SDK (this folder's own
// vendor/) beside WarmHttp (the project's), and prints the finished spans and any warnings as
// JSON. The main autoloader goes first: WarmHttp and open-telemetry/api come from the project.

use OpenTelemetry\API\Trace\Span;
use OpenTelemetry\API\Trace\SpanKind;
use OpenTelemetry\Context\Context;
use OpenTelemetry\SDK\Trace\ImmutableSpan;
use OpenTelemetry\SDK\Trace\SpanExporter\InMemoryExporter;
use OpenTelemetry\SDK\Trace\SpanProcessor\SimpleSpanProcessor;
use OpenTelemetry\SDK\Trace\TracerProvider;
use WarmHttp\Client;

use function WarmHttp\concurrently;

use WarmHttp\Observability\RequestEvent;
use WarmHttp\Observability\RequestFinished;
use WarmHttp\Observability\RequestStarted;

require dirname(__DIR__, 4) . '/vendor/autoload.php';
require __DIR__ . '/vendor/autoload.php';

[, $scenario, $base, $cafile] = $argv;
$warnings = [];
set_error_handler(static function (int $level, string $message) use (&$warnings): bool {
    $warnings[] = $message;

    return true;
}, E_USER_WARNING | E_USER_NOTICE);

$exporter = new InMemoryExporter();
$tracer = (new TracerProvider([new SimpleSpanProcessor($exporter)]))->getTracer('warmhttp-test');
$client = new Client(['cafile' => $cafile]);
$result = [];

if ($scenario === 'parent') {
    $parent = $tracer->spanBuilder('parent')->startSpan();
    $scope = $parent->activate();
    $task = static fn(int $i): Closure => static function () use ($client, $tracer, $base, $i): string {
        $span = $tracer->spanBuilder("task $i")->startSpan();
        $taskScope = $span->activate();
        try {
            // the fibers suspend here and interleave: each must come back to its own context
            $body = (string) $client->sendRequest($client->createRequest('GET', $base . '/slow?ms=' . (30 * (3 - $i))))->getBody();
            $tracer->spanBuilder("after request $i")->startSpan()->end();

            return $body;
        } finally {
            $taskScope->detach();
            $span->end();
        }
    };
    try {
        $result['bodies'] = concurrently($task(0), $task(1), $task(2));
        $result['caller_context_restored'] = Span::fromContext(Context::getCurrent()) === $parent;
    } finally {
        $scope->detach();
        $parent->end();
    }
} elseif ($scenario === 'root') {
    concurrently(
        static fn() => $tracer->spanBuilder('alone')->startSpan()->end(),
        static fn() => $client->sendRequest($client->createRequest('GET', $base . '/fast')),
    );
} elseif ($scenario === 'listener') {
    $open = new WeakMap();
    $traced = $client->withListener(static function (RequestEvent $event) use ($open, $tracer): void {
        if ($event instanceof RequestStarted) {
            // runs in the fiber that sends, so the current context is the task's
            $open[$event->request] = $tracer->spanBuilder('HTTP ' . $event->request->getUri()->getPath())->setSpanKind(SpanKind::KIND_CLIENT)->startSpan();
        } elseif ($event instanceof RequestFinished && isset($open[$event->request])) {
            $open[$event->request]->setAttribute('http.response.status_code', $event->response->getStatusCode())->end();
        }
    });
    $task = static fn(string $name): Closure => static function () use ($traced, $tracer, $base, $name): void {
        $span = $tracer->spanBuilder('task ' . $name)->startSpan();
        $scope = $span->activate();
        try {
            $traced->sendRequest($traced->createRequest('GET', $base . "/echo/$name"));
        } finally {
            $scope->detach();
            $span->end();
        }
    };
    concurrently($task('a'), $task('b'));
} else {
    fwrite(STDERR, "unknown scenario $scenario\n");
    exit(2);
}

$spans = [];
foreach ($exporter->getSpans() as $span) {
    assert($span instanceof ImmutableSpan);
    $spans[$span->getName()] = [
        'id' => $span->getSpanId(),
        'parent' => $span->getParentSpanId(),
        'parent_valid' => $span->getParentContext()->isValid(),
        'trace' => $span->getTraceId(),
        'status_code' => $span->getAttributes()->get('http.response.status_code'),
    ];
}
echo json_encode(['spans' => $spans, 'warnings' => $warnings, 'result' => $result], JSON_THROW_ON_ERROR);
