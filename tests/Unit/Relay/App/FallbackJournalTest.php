<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\App;

use Nyholm\Psr7\Request;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\App\FallbackEntry;
use WarmHttp\Relay\App\FallbackJournal;
use WarmHttp\Relay\App\FallbackPolicy;
use WarmHttp\Relay\App\JournalUnwritable;
use WarmHttp\Relay\App\RelayAddress;
use WarmHttp\Rig\TempDir;

/** The journal on a temp directory: files, locks, renames, refusals. No server. */
final class FallbackJournalTest extends TestCase
{
    private TempDir $tmp;

    protected function setUp(): void
    {
        $this->tmp = TempDir::create('fallback-unit');
    }

    protected function tearDown(): void
    {
        $this->tmp->remove();
    }

    public function testAnEntryKeepsItsBytesHeadersPolicyAndRelay(): void
    {
        $request = new Request('POST', 'https://hooks.example/in#frag', ['X-Signature' => "\xff\xfe raw", 'Host' => 'other', 'X-WarmHttp-Mode' => 'sync', 'Idempotency-Key' => 'k1'], "\x00body\xff");
        $entry = FallbackEntry::of($request, 'k1', new FallbackPolicy(true, ['a.example'], null, 5.0), RelayAddress::parse('unix:///run/r.sock'), 'tok');

        $back = FallbackEntry::decode($entry->encode(), 3);

        self::assertSame('https://hooks.example/in', $back->request->uri);
        self::assertSame([['X-Signature', "\xff\xfe raw"]], $back->request->headers, 'bytes kept; Host, relay and key headers dropped');
        self::assertSame("\x00body\xff", $back->request->body);
        self::assertSame(['k1', 3], [$back->request->idempotencyKey, $back->request->attempts]);
        self::assertEquals($entry->policy, $back->policy);
        self::assertSame(['unix:///run/r.sock', 'tok'], [$back->relay, $back->token]);
    }

    public function testADamagedEntryIsRefused(): void
    {
        $bytes = $this->entry()->encode();

        $this->expectException(\UnexpectedValueException::class);
        $this->expectExceptionMessage('checksum');
        FallbackEntry::decode(substr($bytes, 0, -1) . 'X', 0);
    }

    public function testAppendsPrivatelyAndOneLeaseAtATime(): void
    {
        $journal = new FallbackJournal($this->tmp->path('j'));
        $journal->append($this->entry());

        self::assertSame(0700, fileperms($this->tmp->path('j')) & 0777);
        [$name] = $journal->due(microtime(true), 300, 10);
        self::assertSame(0600, fileperms($this->tmp->path('j/' . $name)) & 0777);
        $lease = $journal->take($name, self::noDamage(...));
        self::assertNotNull($lease);
        self::assertNull((new FallbackJournal($this->tmp->path('j')))->take($name, self::noDamage(...)), 'flock: a second taker (another process) gets nothing');

        $journal->later($lease, 1, microtime(true) - 1);
        [$renamed] = $journal->due(microtime(true), 300, 10);
        self::assertSame(1, FallbackJournal::attemptsOf($renamed));
        self::assertNull((new FallbackJournal($this->tmp->path('j')))->take($name, self::noDamage(...)), 'the old name is gone');
        $again = $journal->take($renamed, self::noDamage(...));
        self::assertNotNull($again);
        $journal->delivered($again);
        self::assertSame([], $journal->due(microtime(true), 300, 10));
    }

    public function testARetryIsNotDueBeforeItsTimeUnlessTheClockWentBack(): void
    {
        $journal = new FallbackJournal($this->tmp->path('j'));
        $journal->append($this->entry());
        [$name] = $journal->due(microtime(true), 300, 10);
        $lease = $journal->take($name, self::noDamage(...));
        self::assertNotNull($lease);
        $journal->later($lease, 1, microtime(true) + 60);

        self::assertSame([], $journal->due(microtime(true), 300, 10));
        self::assertCount(1, $journal->due(microtime(true) - 86400, 300, 10), 'a day back: due now, not frozen for a day');
    }

    public function testTheNextScanMarkerSkipsIdleUnitsOfWork(): void
    {
        $journal = new FallbackJournal($this->tmp->path('j'));
        self::assertFalse($journal->needsScan(microtime(true), 300), 'never used: nothing to look at');
        $journal->append($this->entry());
        self::assertTrue($journal->needsScan(microtime(true) + 1, 300));
        $journal->due(microtime(true), 300, 0);
        $journal->scanned(microtime(true));
        self::assertFalse($journal->needsScan(microtime(true), 300), 'looked at just now');
    }

    public function testADamagedFileGoesToDeadLettersWithItsReason(): void
    {
        $journal = new FallbackJournal($this->tmp->path('j'));
        $journal->append($this->entry());
        [$name] = $journal->due(microtime(true), 300, 10);
        file_put_contents($this->tmp->path('j/' . $name), 'garbage');
        $damaged = [];

        self::assertNull($journal->take($name, static function (string $n, string $why) use (&$damaged): void {
            $damaged[] = $n;
        }));
        self::assertSame([$name], $damaged);
        self::assertFileExists($this->tmp->path('j/dead/' . $name));
        self::assertStringContainsString('not a fallback journal entry', (string) file_get_contents($this->tmp->path('j/dead/' . $name . '.reason')));
    }

    public function testATempFileLeftByADeadAppendIsSweptOnceStale(): void
    {
        $journal = new FallbackJournal($this->tmp->path('j'));
        $journal->append($this->entry());
        touch($this->tmp->path('j/.tmp-fresh.req'));
        touch($this->tmp->path('j/.tmp-old.req'), time() - 7200);

        self::assertCount(1, $journal->due(microtime(true), 300, 10));
        self::assertFileExists($this->tmp->path('j/.tmp-fresh.req'), 'may be an append in progress');
        self::assertFileDoesNotExist($this->tmp->path('j/.tmp-old.req'));
    }

    public function testADirectoryOthersMayWriteIsRefused(): void
    {
        mkdir($this->tmp->path('open'));
        chmod($this->tmp->path('open'), 0777);

        $this->expectException(JournalUnwritable::class);
        $this->expectExceptionMessage('must belong to this user');
        (new FallbackJournal($this->tmp->path('open')))->append($this->entry());
    }

    public function testASymlinkIsRefused(): void
    {
        mkdir($this->tmp->path('real'), 0700);
        symlink($this->tmp->path('real'), $this->tmp->path('link'));

        $this->expectException(JournalUnwritable::class);
        $this->expectExceptionMessage('not a directory');
        (new FallbackJournal($this->tmp->path('link')))->append($this->entry());
    }

    private function entry(): FallbackEntry
    {
        return FallbackEntry::of(new Request('POST', 'https://a.example/', [], 'x'), 'k', new FallbackPolicy(false, [], null, 30.0), null, null);
    }

    private static function noDamage(string $name, string $why): void
    {
        self::fail("$name: $why");
    }
}
