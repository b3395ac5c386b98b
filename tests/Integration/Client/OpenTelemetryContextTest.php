<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use OpenTelemetry\API\Trace\Span;
use OpenTelemetry\API\Trace\SpanInterface;
use OpenTelemetry\API\Trace\SpanKind;
use OpenTelemetry\API\Trace\TracerInterface;
use OpenTelemetry\Context\Context;
use OpenTelemetry\SDK\Trace\ImmutableSpan;
use OpenTelemetry\SDK\Trace\SpanExporter\InMemoryExporter;
use OpenTelemetry\SDK\Trace\SpanProcessor\SimpleSpanProcessor;
use OpenTelemetry\SDK\Trace\TracerProvider;
use Psr\Http\Message\RequestInterface;

use function WarmHttp\concurrently;

use WarmHttp\Observability\RequestEvent;
use WarmHttp\Observability\RequestFinished;
use WarmHttp\Observability\RequestStarted;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * With open-telemetry/api and /sdk installed, the trace context flows into the fibers of
 * concurrently(): a span active before the call is the parent of spans started in its tasks,
 * each task keeps its own context while the fibers interleave on real requests, and OTel's
 * "not initialized OpenTelemetry context in fiber" warning never fires.
 */
final class OpenTelemetryContextTest extends RigTestCase
{
    private InMemoryExporter $exporter;

    private TracerInterface $tracer;

    /** @var list<string> */
    private array $warnings = [];

    protected function setUp(): void
    {
        $this->exporter = new InMemoryExporter();
        $this->tracer = (new TracerProvider([new SimpleSpanProcessor($this->exporter)]))->getTracer('warmhttp-test');
        set_error_handler(function (int $level, string $message): bool {
            $this->warnings[] = $message;

            return true;
        }, \E_USER_WARNING | \E_USER_NOTICE);
    }

    protected function tearDown(): void
    {
        restore_error_handler();
    }

    public function testASpanActiveBeforeConcurrentlyIsTheParentOfSpansInItsTasks(): void
    {
        $client = self::client();
        $parent = $this->tracer->spanBuilder('parent')->startSpan();
        $scope = $parent->activate();
        $task = fn(int $i): \Closure => function () use ($client, $i): string {
            $span = $this->tracer->spanBuilder("task $i")->startSpan();
            $taskScope = $span->activate();
            try {
                // the fibers suspend here and interleave: each must come back to its own context
                $body = (string) $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', '/slow?ms=' . (30 * (3 - $i)))))->getBody();
                $this->tracer->spanBuilder("after request $i")->startSpan()->end();

                return $body;
            } finally {
                $taskScope->detach();
                $span->end();
            }
        };

        try {
            $results = concurrently($task(0), $task(1), $task(2));
            self::assertSame($parent, Span::fromContext(Context::getCurrent()), 'the caller\'s context is its own again');
        } finally {
            $scope->detach();
            $parent->end();
        }

        self::assertSame(['ok', 'ok', 'ok'], $results);
        $spans = $this->spansByName();
        $parentId = $spans['parent']->getSpanId();
        for ($i = 0; $i < 3; ++$i) {
            self::assertSame($parentId, $spans["task $i"]->getParentSpanId(), "task $i");
            self::assertSame($spans['parent']->getTraceId(), $spans["task $i"]->getTraceId());
            self::assertSame($spans["task $i"]->getSpanId(), $spans["after request $i"]->getParentSpanId(), "after request $i: its own task's span, not another fiber's");
        }
        self::assertSame([], $this->warnings);
    }

    public function testTasksWithoutAnActiveSpanStartRootSpansQuietly(): void
    {
        $client = self::client();

        concurrently(
            fn() => $this->tracer->spanBuilder('alone')->startSpan()->end(),
            fn() => $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2'))),
        );

        self::assertFalse($this->spansByName()['alone']->getParentContext()->isValid());
        self::assertSame([], $this->warnings);
    }

    public function testAListenerThatTracesRequestsParentsEachClientSpanToItsTask(): void
    {
        /** @var \WeakMap<RequestInterface, SpanInterface> $open */
        $open = new \WeakMap();
        $client = self::client()->withListener(function (RequestEvent $event) use ($open): void {
            if ($event instanceof RequestStarted) {
                // runs in the fiber that sends, so the current context is the task's
                $open[$event->request] = $this->tracer->spanBuilder('HTTP ' . $event->request->getUri()->getPath())->setSpanKind(SpanKind::KIND_CLIENT)->startSpan();
            } elseif ($event instanceof RequestFinished && isset($open[$event->request])) {
                $open[$event->request]->setAttribute('http.response.status_code', $event->response->getStatusCode())->end();
            }
        });
        $task = fn(string $name): \Closure => function () use ($client, $name): void {
            $span = $this->tracer->spanBuilder('task ' . $name)->startSpan();
            $scope = $span->activate();
            try {
                $client->sendRequest($client->createRequest('GET', self::nginxUrl('h2', "/echo/$name")));
            } finally {
                $scope->detach();
                $span->end();
            }
        };

        concurrently($task('a'), $task('b'));

        $spans = $this->spansByName();
        self::assertSame($spans['task a']->getSpanId(), $spans['HTTP /echo/a']->getParentSpanId());
        self::assertSame($spans['task b']->getSpanId(), $spans['HTTP /echo/b']->getParentSpanId());
        self::assertSame(200, $spans['HTTP /echo/a']->getAttributes()->get('http.response.status_code'));
        self::assertSame([], $this->warnings);
    }

    /** @return array<string, ImmutableSpan> */
    private function spansByName(): array
    {
        $byName = [];
        foreach ($this->exporter->getSpans() as $span) {
            \assert($span instanceof ImmutableSpan);
            $byName[$span->getName()] = $span;
        }

        return $byName;
    }
}
