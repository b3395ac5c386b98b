<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

use GuzzleHttp\Client as GuzzleClient;

/**
 * The harness itself: the origin records what it received byte for byte and answers as
 * scripted; a plain GET is identical on both handlers.
 */
final class HarnessTest extends ParityTestCase
{
    public function testTheOriginRecordsTheRequestAsSent(): void
    {
        $result = self::parity()->request('POST', '/echo?x=1', ['body' => 'hello', 'headers' => ['X-One' => 'a', 'x-two' => 'b']]);

        $received = $result->guzzle->received;
        self::assertCount(1, $received);
        self::assertSame('POST /echo?x=1 HTTP/1.1', $received[0]->line);
        self::assertSame('hello', $received[0]->body);
        self::assertSame('a', $received[0]->header('X-One'));
        self::assertContains('x-two: b', $received[0]->headers, 'header names as sent, not canonicalised');
    }

    public function testScriptedAnswersAreUsedInTurn(): void
    {
        $result = self::parity()->scenario(static function (GuzzleClient $client, EchoOrigin $origin): array {
            $statuses = [];
            foreach ([1, 2, 3] as $_) {
                $statuses[] = $client->get($origin->url('/turns'), ['http_errors' => false])->getStatusCode();
            }

            return ['statuses' => $statuses];
        }, ['/turns' => [Answer::status(503, [], 'busy', 'Service Unavailable'), Answer::status(201, [], 'made', 'Created')]]);

        self::assertSame(['statuses' => [503, 201, 201]], $result->guzzle->seen->facts);
        self::assertParity($result);
    }

    public function testAPlainGetIsIdentical(): void
    {
        $answer = Answer::status(200, ['X-Answer: 1', 'Date: Mon, 23 Nov 2026 10:00:00 GMT'], 'body');

        self::assertParity(self::parity()->request('GET', '/plain', [], $answer), ['seen.class']);
    }

    public function testADelayedHeadTimesOutOnBothSides(): void
    {
        $result = self::parity()->request('GET', '/slow', ['timeout' => 0.3], Answer::status(200, [], 'late')->delayed(1500));

        self::assertSame(\GuzzleHttp\Exception\ConnectException::class, $result->guzzle->seen->facts['exception'] ?? null);
        self::assertLessThan(1.2, $result->guzzle->seconds);
    }
}
