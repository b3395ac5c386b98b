<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use PHPUnit\Framework\Attributes\DataProvider;
use WarmHttp\Exception\NetworkException;
use WarmHttp\Tests\Integration\RigTestCase;

/**
 * A server closes an idle keep-alive connection just as the client reuses it: the request is
 * read, then the socket closed without an answer. Safe requests are retried on a new
 * connection; a POST must not be sent twice.
 */
final class DeadConnectionTest extends RigTestCase
{
    /** @return iterable<string, array{'fin'|'rst'}> */
    public static function closings(): iterable
    {
        yield 'FIN' => ['fin'];
        yield 'RST' => ['rst'];
    }

    /** @param 'fin'|'rst' $how */
    #[DataProvider('closings')]
    public function testGetOnADeadReusedConnectionIsRetriedOnce(string $how): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client();
        $client->sendRequest($client->createRequest('GET', $origin->url('/ok')));
        $origin->armDeadReuse($how);

        $response = $client->sendRequest($client->createRequest('GET', $origin->url('/ok?second')));

        self::assertSame(200, $response->getStatusCode());
        $stats = $origin->stats();
        self::assertSame(1, $stats['deadReuseClosed']);
        self::assertSame(2, $stats['connections']);
    }

    /** @param 'fin'|'rst' $how */
    #[DataProvider('closings')]
    public function testPostOnADeadReusedConnectionIsNotResent(string $how): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client();
        $client->sendRequest($client->createRequest('GET', $origin->url('/ok')));
        $origin->armDeadReuse($how);
        $post = $client->createRequest('POST', $origin->url('/ok?order'))->withBody($client->createStream('{"order":1}'));

        try {
            $client->sendRequest($post);
            self::fail('the POST should have failed rather than been re-sent');
        } catch (NetworkException $e) {
            self::assertSame($post->getUri(), $e->getRequest()->getUri());
            self::assertStringContainsString('not re-sent', $e->getMessage());
        }
        $stats = $origin->stats();
        self::assertSame(1, $stats['methods']['POST /ok'] ?? 0, json_encode($stats) ?: '');
        self::assertSame(1, $stats['deadReuseClosed']);
    }

    public function testPostWithAnIdempotencyKeyIsRetried(): void
    {
        $origin = self::rig()->rawOrigin();
        $client = self::client();
        $client->sendRequest($client->createRequest('GET', $origin->url('/ok')));
        $origin->armDeadReuse();
        $post = $client->createRequest('POST', $origin->url('/ok'))
            ->withHeader('Idempotency-Key', 'order-1')
            ->withBody($client->createStream('{"order":1}'));

        self::assertSame(200, $client->sendRequest($post)->getStatusCode());
        self::assertSame(2, $origin->stats()['connections']);
    }
}
