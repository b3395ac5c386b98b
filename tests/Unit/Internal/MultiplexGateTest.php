<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Internal;

use PHPUnit\Framework\TestCase;
use WarmHttp\Internal\Exchange;
use WarmHttp\Internal\MultiplexGate;
use WarmHttp\Internal\Transfer;
use WarmHttp\Internal\TransferSpec;
use WarmHttp\Relay\Outbound\UpstreamExchange;

/** The gate's bookkeeping alone; tests/Integration/Concurrency/MultiplexGateTest counts real connections. */
final class MultiplexGateTest extends TestCase
{
    private Exchange $exchange;

    protected function setUp(): void
    {
        $this->exchange = new UpstreamExchange();
    }

    public function testTransfersWithoutPipewaitAreNeverHeld(): void
    {
        $gate = new MultiplexGate();
        for ($i = 0; $i < 250; ++$i) {
            self::assertTrue($gate->admit($this->transfer('http://a.test/', pipewait: false)));
        }
        self::assertSame(0, $gate->waiting());
    }

    public function testUntilTheOriginIsKnownToMultiplexOneConnectionOfStreamsGoesAndTheRestWait(): void
    {
        $gate = new MultiplexGate();
        $admitted = $this->admitMany($gate, 250);

        self::assertCount(MultiplexGate::STREAMS_PER_CONNECTION, $admitted);
        self::assertSame(150, $gate->waiting());
    }

    public function testOnceAnAnswerCameOverHttp2AFreedStreamLetsOneInAndOneOpenerGo(): void
    {
        $gate = new MultiplexGate();
        $admitted = $this->admitMany($gate, 250);

        $ready = $gate->settled($admitted[0], \CURL_HTTP_VERSION_2_0, false);

        self::assertCount(2, $ready, 'one for the freed stream, one that may open a second connection');
        self::assertSame(148, $gate->waiting());
    }

    public function testAnOpenerThatOpenedAnHttp2ConnectionFreesAnotherConnectionOfStreams(): void
    {
        $gate = new MultiplexGate();
        $admitted = $this->admitMany($gate, 250);
        [, $opener] = $gate->settled($admitted[0], \CURL_HTTP_VERSION_2_0, false);

        $ready = $gate->settled($opener, \CURL_HTTP_VERSION_2_0, true);

        // 100 more streams on the second connection, and the next opener.
        self::assertCount(MultiplexGate::STREAMS_PER_CONNECTION + 1, $ready);
        self::assertSame(47, $gate->waiting());
    }

    public function testAnOpenerThatFoundAFreeStreamAddsNoConnection(): void
    {
        $gate = new MultiplexGate();
        $admitted = $this->admitMany($gate, 250);
        [, $opener] = $gate->settled($admitted[0], \CURL_HTTP_VERSION_2_0, false);

        $ready = $gate->settled($opener, \CURL_HTTP_VERSION_2_0, false);

        self::assertCount(1, $ready, 'no stream is free: only a new opener goes');
    }

    public function testOriginsAreCountedApart(): void
    {
        $gate = new MultiplexGate();
        $this->admitMany($gate, 150, 'https://a.test/');

        self::assertTrue($gate->admit($this->transfer('https://b.test/')));
        self::assertTrue($gate->admit($this->transfer('https://a.test:8443/')));
    }

    public function testAnHttp11OriginIsNotHeldOnceItAnswered(): void
    {
        $gate = new MultiplexGate();
        $admitted = $this->admitMany($gate, 150);

        $ready = $gate->settled($admitted[0], \CURL_HTTP_VERSION_1_1, true);

        self::assertSame(0, $gate->waiting(), 'everything waiting goes to curl, which opens connections as HTTP/1.1 needs');
        self::assertCount(50, $ready);
    }

    public function testAWaitingTransferCanBeWithdrawnOnce(): void
    {
        $gate = new MultiplexGate();
        $this->admitMany($gate, 102);
        [$waiting] = $gate->allWaiting();

        self::assertTrue($gate->withdraw($waiting));
        self::assertFalse($gate->withdraw($waiting));
        self::assertSame(1, $gate->waiting());
    }

    public function testAnIdleOriginIsForgotten(): void
    {
        $gate = new MultiplexGate();
        $admitted = $this->admitMany($gate, 3);
        foreach ($admitted as $transfer) {
            $gate->settled($transfer, \CURL_HTTP_VERSION_2_0, false);
        }

        self::assertTrue($gate->admit($this->transfer()));
        self::assertSame([], $gate->settled($this->transfer(), \CURL_HTTP_VERSION_2_0, false), 'a transfer the gate never saw frees nothing');
    }

    /** @return list<Transfer> the admitted ones */
    private function admitMany(MultiplexGate $gate, int $count, string $url = 'https://a.test/'): array
    {
        $admitted = [];
        for ($i = 0; $i < $count; ++$i) {
            $transfer = $this->transfer($url);
            if ($gate->admit($transfer)) {
                $admitted[] = $transfer;
            }
        }

        return $admitted;
    }

    public function testWithFewTransfersInCurlTheGateRecordsNothing(): void
    {
        $gate = new MultiplexGate();
        $inCurl = [];
        for ($i = 0; $i < MultiplexGate::STREAMS_PER_CONNECTION - 1; ++$i) {
            $transfer = $this->transfer();
            self::assertTrue($gate->admit($transfer, $inCurl));
            $inCurl[] = $transfer;
        }

        self::assertFalse($gate->counting);
        self::assertSame([], $gate->settled($inCurl[0], \CURL_HTTP_VERSION_2_0, false), 'nothing recorded, nothing to release');
    }

    public function testFromTheNinetyNinthInCurlTheGateCountsThoseAlreadyInAndHoldsTheHundredAndFirst(): void
    {
        $gate = new MultiplexGate();
        $inCurl = [];
        for ($i = 0; $i < 250; ++$i) {
            $transfer = $this->transfer();
            if ($gate->admit($transfer, $inCurl)) {
                $inCurl[] = $transfer;
            }
        }

        self::assertTrue($gate->counting);
        self::assertCount(MultiplexGate::STREAMS_PER_CONNECTION, $inCurl, 'as many as with counting from the first');
        self::assertSame(150, $gate->waiting());

        $ready = $gate->settled($inCurl[0], \CURL_HTTP_VERSION_2_0, false);
        self::assertCount(2, $ready, 'a transfer admitted before the gate counted frees its stream when it settles');
        $queue = [...\array_slice($inCurl, 1), ...$ready];
        while (($transfer = array_shift($queue)) !== null) {
            array_push($queue, ...$gate->settled($transfer, \CURL_HTTP_VERSION_2_0, false));
        }
        self::assertSame(0, $gate->waiting());
        self::assertFalse($gate->counting, 'idle again: back to recording nothing');
    }

    private function transfer(string $url = 'https://a.test/', bool $pipewait = true): Transfer
    {
        return new Transfer(TransferSpec::of('GET', $url, true, $pipewait ? [\CURLOPT_PIPEWAIT => true] : []), $this->exchange);
    }
}
