<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\JournalRecord;
use WarmHttp\Relay\Storage\SpooledRequest;

final class JournalRecordTest extends TestCase
{
    public function testDecodesWhatItEncoded(): void
    {
        $request = self::request("binary \0\xFF body");
        $record = JournalRecord::encode($request);

        self::assertEquals([$request, \strlen($record)], JournalRecord::decode($record, 0));
    }

    public function testStartsWithTheMarkerTheBigEndianLengthAndCrcOfThePayloadAndTheHeadersCrc(): void
    {
        $record = JournalRecord::encode(self::request('x'));
        $payload = substr($record, JournalRecord::HEADER_BYTES);
        $head = JournalRecord::MARKER . pack('NN', \strlen($payload), crc32($payload));

        self::assertSame($head . pack('N', crc32($head)), substr($record, 0, JournalRecord::HEADER_BYTES));
        self::assertSame(\strlen($record), JournalRecord::wholeLength($record, 0));
        self::assertSame(\strlen($record), JournalRecord::extent($record, 0));
    }

    public function testTellsARecordNotAllThereFromADamagedOne(): void
    {
        $record = JournalRecord::encode(self::request('a body'));
        $payloadDamaged = $record;
        $payloadDamaged[\strlen($record) - 1] = 'Z';
        $headerDamaged = $record;
        $headerDamaged[5] = \chr(\ord($record[5]) ^ 0x80);

        self::assertSame(0, JournalRecord::check(substr($record, 0, -1), 0), 'being written');
        self::assertSame(-1, JournalRecord::check($payloadDamaged, 0));
        self::assertSame(\strlen($record), JournalRecord::extent($payloadDamaged, 0), 'an intact header still tells where it ends');
        self::assertSame(-1, JournalRecord::check($headerDamaged, 0), 'a damaged length is not taken for a record still being written');
        self::assertNull(JournalRecord::extent($headerDamaged, 0));
    }

    public function testReadsRecordsBackToBackFromAnOffset(): void
    {
        $first = JournalRecord::encode(self::request('first'));
        $second = JournalRecord::encode(self::request('second'));

        $decoded = JournalRecord::decode($first . $second, \strlen($first));

        self::assertNotNull($decoded);
        self::assertSame('second', $decoded[0]->body);
        self::assertSame(\strlen($second), $decoded[1]);
    }

    public function testATruncatedRecordIsNotWhole(): void
    {
        $record = JournalRecord::encode(self::request('a body long enough to be cut'));

        foreach ([0, 3, JournalRecord::HEADER_BYTES, JournalRecord::HEADER_BYTES + 5, \strlen($record) - 1] as $cut) {
            self::assertNull(JournalRecord::wholeLength(substr($record, 0, $cut), 0), "cut at $cut");
            self::assertNull(JournalRecord::decode(substr($record, 0, $cut), 0), "cut at $cut");
        }
    }

    public function testARecordWithABadChecksumIsNotWhole(): void
    {
        $record = JournalRecord::encode(self::request('abc'));
        $record[\strlen($record) - 3] = $record[\strlen($record) - 3] === 'A' ? 'B' : 'A';

        self::assertNull(JournalRecord::wholeLength($record, 0));
        self::assertNull(JournalRecord::decode($record, 0));
    }

    public function testAnIntactRecordWhosePayloadIsNotARequestIsRefused(): void
    {
        $payload = '{"not":"a request"}';
        $head = JournalRecord::MARKER . pack('NN', \strlen($payload), crc32($payload));

        self::assertNull(JournalRecord::decode($head . pack('N', crc32($head)) . $payload, 0));
        self::assertNull(JournalRecord::decode(pack('NN', \strlen($payload), crc32($payload)) . $payload, 0, legacy: true));
    }

    public function testDecodesARecordOfTheFormatBeforeTheMarker(): void
    {
        $payload = json_encode(['POST', 'https://a.example/', [['X-A', '1']], base64_encode("b\0dy"), 'key', 1.5], \JSON_THROW_ON_ERROR);
        $record = pack('NN', \strlen($payload), crc32($payload)) . $payload;

        self::assertTrue(JournalRecord::isLegacy($record));
        self::assertEquals([new SpooledRequest(0, 'POST', 'https://a.example/', [['X-A', '1']], "b\0dy", 'key', 0, 1.5), \strlen($record)], JournalRecord::decode($record, 0, legacy: true));
    }

    public function testAnOffsetPastTheEndHoldsNoRecord(): void
    {
        $record = JournalRecord::encode(self::request('x'));

        self::assertNull(JournalRecord::decode($record, \strlen($record)));
    }

    public function testKeepsAHeaderValueThatIsNotUtf8ByteForByte(): void
    {
        // RequestParser accepts obs-text (0x80-0xFF) in header values, as RFC 9110 5.5 allows.
        $request = new SpooledRequest(0, 'POST', 'https://a.example/', [['X-Name', "caf\xE9"]], '', 'k', 0, 1.5);

        $decoded = JournalRecord::decode(JournalRecord::encode($request), 0);

        self::assertNotNull($decoded);
        self::assertSame($request->headers, $decoded[0]->headers);
    }

    private static function request(string $body): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'https://api.example.com/hooks?x=1', [['Content-Type', 'text/plain'], ['X-Tag', 'a']], $body, 'key-1', 0, 1700000000.25);
    }
}
