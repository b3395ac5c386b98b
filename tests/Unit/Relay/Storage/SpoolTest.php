<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Storage;

use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Storage\JournalPosition;
use WarmHttp\Relay\Storage\Spool;
use WarmHttp\Relay\Storage\SpooledRequest;
use WarmHttp\Relay\Storage\SpoolReader;
use WarmHttp\Relay\Storage\SpoolUnavailable;
use WarmHttp\Relay\Worker\Outcomes;
use WarmHttp\Tests\Unit\Support\TempDirectory;

/** The durable queue on a SQLite file in a temp directory; fsync off, the disk is not the subject. */
final class SpoolTest extends TestCase
{
    private TempDirectory $temp;

    private string $path;

    private Spool $spool;

    protected function setUp(): void
    {
        $this->temp = new TempDirectory();
        $this->path = $this->temp->path . '/spool/relay.sqlite';
        $this->spool = Spool::open($this->path, false);
    }

    protected function tearDown(): void
    {
        $this->temp->remove();
    }

    public function testCommitStoresTheRequestsAndGivesThemIds(): void
    {
        $stored = $this->spool->commit([self::request('a', 10.0), self::request('b', 11.0)]);

        self::assertSame([1, 2], array_map(static fn(SpooledRequest $r): int => $r->id, $stored));
        self::assertEquals($stored, $this->spool->due(20.0, 10, []));
    }

    public function testDueListsOnlyWhatIsDueOldestFirst(): void
    {
        $this->spool->commit([self::request('late', 30.0), self::request('early', 10.0), self::request('middle', 20.0)]);

        self::assertSame(['early', 'middle'], self::bodies($this->spool->due(25.0, 10, [])));
    }

    public function testDueSkipsTheGivenIdsAndStopsAtTheLimit(): void
    {
        $this->spool->commit([self::request('a', 1.0), self::request('b', 2.0), self::request('c', 3.0), self::request('d', 4.0)]);

        self::assertSame(['b', 'd'], self::bodies($this->spool->due(10.0, 2, [1 => true, 3 => true])));
    }

    public function testDueStopsAtTheByteBudgetButAlwaysReturnsOne(): void
    {
        $this->spool->commit([self::request(str_repeat('a', 100), 1.0), self::request(str_repeat('b', 100), 2.0)]);

        self::assertCount(1, $this->spool->due(10.0, 10, [], 150));
        self::assertCount(1, $this->spool->due(10.0, 10, [], 10));
        self::assertCount(2, $this->spool->due(10.0, 10, [], 200));
    }

    public function testKeepsABinaryBodyAndTheHeaders(): void
    {
        $request = new SpooledRequest(0, 'PUT', 'https://a.example/b', [['X-A', '1'], ['X-A', '2']], "\0\xFF\xFE", 'key', 0, 5.0);

        [$stored] = $this->spool->commit([$request]);

        self::assertEquals([$stored], $this->spool->due(5.0, 1, []));
    }

    public function testStoresTheJournalPositionWithTheCommit(): void
    {
        self::assertEquals(new JournalPosition(0, 0), $this->spool->journalPosition());

        $this->spool->commit([], null, new JournalPosition(3, 1234));

        self::assertEquals(new JournalPosition(3, 1234), Spool::open($this->path, false)->journalPosition());
    }

    public function testADeliveredRequestLeavesTheQueueAndIsCounted(): void
    {
        [$stored] = $this->spool->commit([self::request('a', 1.0)]);
        $outcomes = new Outcomes();
        $outcomes->delivered[] = $stored->id;

        $this->spool->commit([], $outcomes);

        self::assertSame([], $this->spool->due(10.0, 10, []));
        self::assertSame(1, SpoolReader::open($this->path)->counts()['delivered']);
    }

    public function testARetryIsDueAgainAtItsNextAttempt(): void
    {
        [$stored] = $this->spool->commit([self::request('a', 1.0)]);
        $outcomes = new Outcomes();
        $outcomes->retries[$stored->id] = [50.0, 1, 'HTTP 503'];

        $this->spool->commit([], $outcomes);

        self::assertSame([], $this->spool->due(10.0, 10, []));
        self::assertSame(50.0, $this->spool->nextDueAfter(10.0));
        [$due] = $this->spool->due(50.0, 10, []);
        self::assertSame(1, $due->attempts);
        self::assertSame(1, SpoolReader::open($this->path)->counts()['retrying']);
    }

    public function testNothingIsDueLaterInAnEmptySpool(): void
    {
        self::assertNull($this->spool->nextDueAfter(0.0));
    }

    public function testADeadRequestMovesToTheDeadLettersAndCanBeRequeued(): void
    {
        [$stored] = $this->spool->commit([self::request('a', 1.0)]);
        $outcomes = new Outcomes();
        $outcomes->dead[$stored->id] = [5, 'HTTP 400'];
        $this->spool->commit([], $outcomes);
        $reader = SpoolReader::open($this->path);

        self::assertSame([], $this->spool->due(10.0, 10, []));
        [$dead] = $reader->deadLetters();
        self::assertSame(['id' => $stored->id, 'method' => 'POST', 'uri' => 'https://a.example/hook', 'attempts' => 5], \array_slice($dead, 0, 4));
        self::assertSame('HTTP 400', $dead['last_error']);
        self::assertSame(['pending' => 0, 'dead' => 1, 'dead_lettered' => 1], array_intersect_key($reader->counts(), ['pending' => 0, 'dead' => 0, 'dead_lettered' => 0]));

        self::assertSame(1, $reader->retry(null));

        [$requeued] = $this->spool->due(microtime(true) + 1, 10, []);
        self::assertSame($stored->id, $requeued->id);
        self::assertSame(0, $requeued->attempts);
        self::assertSame('a', $requeued->body);
    }

    public function testRetryRequeuesOnlyTheGivenIds(): void
    {
        $stored = $this->spool->commit([self::request('a', 1.0), self::request('b', 1.0)]);
        $outcomes = new Outcomes();
        foreach ($stored as $request) {
            $outcomes->dead[$request->id] = [1, 'gone'];
        }
        $this->spool->commit([], $outcomes);
        $reader = SpoolReader::open($this->path);

        self::assertSame(0, $reader->retry([]));
        self::assertSame(1, $reader->retry([$stored[1]->id]));
        self::assertSame([$stored[0]->id], array_column($reader->deadLetters(), 'id'));
    }

    public function testOpenFailsWhenTheDirectoryCannotBeCreated(): void
    {
        touch($this->temp->path . '/file');

        $this->expectException(SpoolUnavailable::class);
        $this->expectExceptionMessage('--spool=' . $this->temp->path . '/file/sub/relay.sqlite');

        Spool::open($this->temp->path . '/file/sub/relay.sqlite', false);
    }

    /**
     * @param list<SpooledRequest> $requests
     *
     * @return list<string>
     */
    private static function bodies(array $requests): array
    {
        return array_map(static fn(SpooledRequest $r): string => $r->body, $requests);
    }

    private static function request(string $body, float $createdAt): SpooledRequest
    {
        return new SpooledRequest(0, 'POST', 'https://a.example/hook', [['Content-Type', 'text/plain']], $body, 'key-' . $body, 0, $createdAt);
    }
}
