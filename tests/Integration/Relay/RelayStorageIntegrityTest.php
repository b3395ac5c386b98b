<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;

/**
 * Issue 13 item 10: a damaged SQLite spool gave an endless error loop, and GET /metrics killed
 * the front. Start-up now checks the spool, moves a damaged one aside, keeps every readable row;
 * a spool that breaks while the relay runs costs /metrics a gauge, never the front.
 */
final class RelayStorageIntegrityTest extends TestCase
{
    public function testADamagedSpoolIsMovedAsideAndWhatCanBeReadIsDelivered(): void
    {
        $origin = RelayStorageOrigin::start(503);
        $relay = RelayProcess::start(['--allow-private-networks', '--retry-base=0.2', '--retry-cap=0.5']);
        $body = str_repeat('r', 4000); // a row's body on pages of its own: damage hits some rows only
        for ($i = 0; $i < 40; ++$i) {
            self::assertStringStartsWith('HTTP/1.1 202 ', $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: %d\r\n\r\n%s", $origin->url("/kept?id=$i"), \strlen($body), $body)));
        }
        self::assertTrue(self::await(static fn(): bool => \count($origin->requests()) >= 40), 'every request was tried once, so it is in the spool');
        self::assertSame(0, $relay->terminate());
        self::damagePages($relay->spoolPath());

        $relay->launch();
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /metrics HTTP/1.1\r\n\r\n"), 'the front answers /metrics');
        $origin->answer(200);
        $delivered = $origin->awaitDelivered(40, 10.0);

        self::assertStringContainsString('The spool was damaged: moved it aside', $relay->log());
        self::assertNotEmpty(glob($relay->spoolPath() . '.damaged-*'), 'the damaged file is kept');
        self::assertGreaterThan(20, \count($delivered), 'the readable rows were kept and delivered; relay log: ' . $relay->log());
        self::assertStringStartsWith('HTTP/1.1 202 ', $relay->raw(\sprintf("POST %s HTTP/1.1\r\nContent-Length: 0\r\n\r\n", $origin->url('/after'))));
        // Kept rows may still be arriving (their retries back off): wait for this one by name.
        $deadline = microtime(true) + 10.0;
        while (!\in_array('/after', $seen = $origin->awaitDelivered(0, 0.0), true) && microtime(true) < $deadline) {
            usleep(50_000);
        }
        self::assertContains('/after', $seen, 'and the new spool takes new requests; relay log: ' . $relay->log());
        $relay->remove();
    }

    public function testASpoolBrokenUnderARunningRelayDoesNotKillTheFrontOnMetrics(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        $db = new \PDO('sqlite:' . $relay->spoolPath(), null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $db->exec('PRAGMA busy_timeout = 5000');
        $db->exec('DROP TABLE pending');
        unset($db);

        $metrics = $relay->raw("GET /metrics HTTP/1.1\r\n\r\n");

        self::assertStringStartsWith('HTTP/1.1 200 ', $metrics);
        self::assertStringContainsString('warmhttp_relay_spool_readable 0', $metrics);
        self::assertStringStartsWith('HTTP/1.1 200 ', $relay->raw("GET /healthz HTTP/1.1\r\n\r\n"), 'the front still runs');
        usleep(1_000_000);
        self::assertLessThan(10, substr_count($relay->log(), 'The spool failed'), 'the worker backs off instead of logging ten times a second');
        $relay->remove();
    }

    /**
     * Garbage over three of the rows' overflow pages (the 4,000-byte bodies), found with SQLite's
     * dbstat: those rows cannot be read any more, the others can. Garbage over "the middle of the
     * file" sometimes hit the table's interior page instead, and then no row could be read.
     */
    private static function damagePages(string $spool): void
    {
        self::assertFileDoesNotExist($spool . '-wal', 'the relay checkpointed on its way out');
        $db = new \PDO('sqlite:' . $spool, null, null, [\PDO::ATTR_ERRMODE => \PDO::ERRMODE_EXCEPTION]);
        $query = $db->query("SELECT pageno FROM dbstat WHERE name = 'pending' AND pagetype = 'overflow' ORDER BY pageno");
        \assert($query !== false);
        /** @var list<int> $overflow */
        $overflow = $query->fetchAll(\PDO::FETCH_COLUMN);
        $size = $db->query('PRAGMA page_size');
        \assert($size !== false);
        $page = (int) $size->fetchColumn();
        unset($query, $size, $db);
        self::assertGreaterThanOrEqual(30, \count($overflow), 'the bodies sit on overflow pages');
        $file = fopen($spool, 'r+');
        \assert($file !== false);
        foreach (\array_slice($overflow, intdiv(\count($overflow), 2), 3) as $pageNumber) {
            fseek($file, ($pageNumber - 1) * $page);
            fwrite($file, str_repeat("\xA5", $page));
        }
        fclose($file);
    }

    private static function await(\Closure $until): bool
    {
        $deadline = microtime(true) + 10;
        while (!$until()) {
            if (microtime(true) > $deadline) {
                return false;
            }
            usleep(20_000);
        }

        return true;
    }
}
