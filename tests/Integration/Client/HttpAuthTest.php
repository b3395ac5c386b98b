<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Client;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Tests\Integration\Bridge\Parity\Answer;
use WarmHttp\Tests\Integration\Bridge\Parity\EchoOrigin;
use WarmHttp\Tests\Integration\Bridge\Parity\Received;

/**
 * The `http_auth` option against a raw origin that plays the server's part of digest and NTLM
 * (there is no NTLM server here: the origin sends a fixed type-2 challenge and takes any
 * type-3 answer). NTLM authenticates a connection, so the test follows connections: one user's
 * authenticated connection must never carry another user's request, nor an anonymous one.
 */
final class HttpAuthTest extends TestCase
{
    private static ?EchoOrigin $origin = null;

    public static function tearDownAfterClass(): void
    {
        self::$origin = null;
    }

    public function testDigestAnswersTheChallengeWithTheBodySentOnce(): void
    {
        $origin = self::origin();
        $origin->script(['/digest' => [
            Answer::status(401, ['WWW-Authenticate: Digest realm="test", qop="auth", nonce="abc123", opaque="xyz"'], 'who?', 'Unauthorized'),
            Answer::status(200, [], 'welcome'),
        ]]);
        $mark = $origin->mark();

        $response = (new Client(['http_auth' => ['digest', 'user', 'pass']]))->sendRequest(new Request('POST', $origin->url('/digest'), [], 'payload'));

        self::assertSame('welcome', (string) $response->getBody());
        $sent = $origin->received($mark);
        self::assertSame(['', 'payload'], array_map(static fn(Received $r): string => $r->body, $sent), 'a probe without the body, then the body');
        self::assertStringStartsWith('Digest username="user", realm="test", nonce="abc123", uri="/digest"', (string) $sent[1]->header('Authorization'));
    }

    public function testNtlmConnectionsAreTheirUsersOwn(): void
    {
        $origin = self::origin();
        $challenge = Answer::status(401, ['WWW-Authenticate: NTLM ' . self::type2()], '', 'Unauthorized');
        $origin->script(['/alice' => [$challenge, Answer::status(200, [], 'alice in')], '/bob' => [$challenge, Answer::status(200, [], 'bob in')], '*' => Answer::status(200, [], 'anonymous')]);
        $alice = new Client(['http_auth' => ['ntlm', 'alice', 'a-secret']]);
        $bob = new Client(['http_auth' => ['ntlm', 'bob', 'b-secret']]);
        $anonymous = new Client();
        $mark = $origin->mark();

        self::assertSame('alice in', self::get($alice, '/alice'));
        self::assertSame('bob in', self::get($bob, '/bob'));
        self::assertSame('anonymous', self::get($anonymous, '/plain'));
        self::assertSame('anonymous', self::get($alice, '/alice-again'));

        $sent = $origin->received($mark);
        self::assertSame(['/alice', '/alice', '/bob', '/bob', '/plain', '/alice-again'], array_map(static fn(Received $r): string => explode(' ', $r->line)[1], $sent));
        self::assertStringStartsWith('NTLM TlRMTVNTUAAB', (string) $sent[0]->header('Authorization'), 'type 1');
        self::assertStringStartsWith('NTLM TlRMTVNTUAAD', (string) $sent[1]->header('Authorization'), 'type 3');
        [$aliceConnection, $bobConnection] = [$sent[1]->connection, $sent[3]->connection];
        self::assertSame($aliceConnection, $sent[0]->connection, 'the handshake stays on its connection');
        self::assertNotSame($aliceConnection, $bobConnection, 'bob never gets alice\'s authenticated connection');
        self::assertNotContains($sent[4]->connection, [$aliceConnection, $bobConnection], 'nor does an anonymous request');
        self::assertSame($aliceConnection, $sent[5]->connection, 'alice keeps her warm, authenticated connection');
        self::assertNull($sent[5]->header('Authorization'), 'it is authenticated already');
    }

    /**
     * A minimal NTLM type-2 message: signature, type, an empty target name, flags (Unicode,
     * NTLM), the server challenge, and an empty context and target info.
     */
    private static function type2(): string
    {
        return base64_encode("NTLMSSP\0" . pack('V', 2) . pack('vvV', 0, 0, 48) . pack('V', 0x00000201) . '01234567' . str_repeat("\0", 16));
    }

    private static function get(Client $client, string $path): string
    {
        return (string) $client->sendRequest(new Request('GET', self::origin()->url($path)))->getBody();
    }

    private static function origin(): EchoOrigin
    {
        return self::$origin ??= EchoOrigin::start();
    }
}
