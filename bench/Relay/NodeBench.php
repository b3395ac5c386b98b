<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\InputStream;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\PhpFpm;
use WarmHttp\Rig\Rig;

/**
 * seeds/004's Node forwarder measured the way the relay's rows are: the time a caller is
 * blocked per hand-off, and how fast it delivers to a 20 ms-RTT upstream. Both count at the
 * destination what arrived, by id, since the caller cannot know.
 *
 * @internal benchmark tooling
 */
final class NodeBench
{
    /** The caller-blocked rows' body: 1 KiB, here as JSON, which Express's json() parser needs. */
    private const BODY_BYTES = 1024;
    /** Callers handing off at once in the throughput row: the relay's row has 32 too. */
    private const CALLERS = 32;

    /**
     * One untimed first hand-off (Node's first request pays its lazy set-up), then $count timed
     * ones while Node forwards the earlier ones at $rttMs; then waits for them at the origin so
     * they do not load the next row.
     */
    public function handOffs(int $count, float $rttMs): NodeHandOffs
    {
        $rig = Rig::shared();
        $run = bin2hex(random_bytes(4));
        $proxy = $rig->proxyTo('h2', $rttMs); // kept: the proxy stops with its object
        $node = NodeForwarder::start($proxy->url('/echo-body'), Requirements::caFile($rig));
        try {
            $origin = OriginLog::follow($rig->nginx(), 'nb=' . $run . '&');
            $json = self::json(self::BODY_BYTES);
            $failed = FsockopenHandOff::send($node->url(\sprintf('/prod?nb=%s&id=0', $run)), $json) ? 0 : 1;
            $samples = [];
            for ($i = 1; $i <= $count; ++$i) {
                $url = $node->url(\sprintf('/prod?nb=%s&id=%d', $run, $i));
                $start = hrtime(true);
                $sent = FsockopenHandOff::send($url, $json);
                $samples[] = (hrtime(true) - $start) / 1e3;
                $failed += $sent ? 0 : 1;
            }
            $origin->await($count + 1 - $failed, max(10.0, $count / 200));

            return new NodeHandOffs(Latencies::of($samples), $count + 1, $failed, $origin->distinct(), $node->failedForwards());
        } finally {
            $node->stop();
        }
    }

    /**
     * $count hand-offs by CALLERS processes at once (as many FPM workers would), each making
     * them back to back with fsockopen per call, Node confined to one CPU as the relay is in
     * its row; timed from the first hand-off until the origin logged every one that left.
     */
    public function deliveries(int $count, float $rttMs): ThroughputResult
    {
        $rig = Rig::shared();
        $run = bin2hex(random_bytes(4));
        $proxy = $rig->proxyTo('h2', $rttMs);
        $node = NodeForwarder::start($proxy->url('/echo-body'), Requirements::caFile($rig), oneCore: true);
        try {
            $origin = OriginLog::follow($rig->nginx(), 'ntp=' . $run . '&');
            $callers = self::callers($node->url(\sprintf('/prod?ntp=%s&id=', $run)), $count);
            $cpuBefore = $node->cpuSeconds();
            $start = microtime(true);
            $sent = self::handOff($callers);
            $handedOff = microtime(true);
            $done = $origin->await($sent, max(30.0, $count / 500)) ?? microtime(true);

            return new ThroughputResult($count, $sent, $count - $sent, $handedOff - $start, $done - $start, $origin->distinct(), $origin->requests() - $origin->distinct(), ThroughputResult::cpuUsed($cpuBefore, $node->cpuSeconds()), $node->pinnedCpu, $proxy->connections());
        } finally {
            $node->stop();
        }
    }

    /**
     * The caller processes, started and waiting for the word to go (PHP's start-up is not timed).
     *
     * @return list<array{Process, InputStream}>
     */
    private static function callers(string $urlPrefix, int $count): array
    {
        $callers = [];
        for ($i = 0; $i < self::CALLERS; ++$i) {
            $go = new InputStream();
            $caller = new Process([\PHP_BINARY, __DIR__ . '/fsockopen-caller.php', $urlPrefix, (string) $i, (string) self::CALLERS, (string) $count]);
            $caller->setInput($go);
            $caller->setTimeout(120);
            $caller->start();
            $callers[] = [$caller, $go];
        }
        usleep(300_000); // PHP's start-up, ~20 ms CPU each on this machine, out of the way

        return $callers;
    }

    /**
     * @param list<array{Process, InputStream}> $callers
     *
     * @return int hand-offs that left the callers
     */
    private static function handOff(array $callers): int
    {
        foreach ($callers as [, $go]) {
            $go->write("go\n");
            $go->close();
        }
        $sent = 0;
        foreach ($callers as [$caller]) {
            $caller->wait();
            if (!$caller->isSuccessful()) {
                throw new \RuntimeException('A hand-off caller failed: ' . $caller->getErrorOutput());
            }
            $sent += (int) $caller->getOutput();
        }

        return $sent;
    }

    /**
     * seeds/004 with its Node forwarder: the FPM endpoint hands its POST to Node with fsockopen
     * (bench/Relay/fpm/node.php), Node posts it to the upstream that takes $upstreamMs, under
     * wrk as the blocking and dispatch() rows are.
     *
     * @return array{WrkResult, int} wrk's result, and the hand-offs that failed at fsockopen
     */
    public function seeds004(int $workers, int $connections, int $seconds, int $upstreamMs): array
    {
        $node = NodeForwarder::start(Rig::shared()->nginx()->url('plain', '/slow?ms=' . $upstreamMs));
        $fpm = PhpFpm::start(__DIR__ . '/fpm', $workers, ['WARMHTTP_NODE_URL' => $node->url('/prod')]);
        try {
            $run = WrkResult::measure($fpm->url('/node.php'), $connections, $seconds);

            return [$run, substr_count($fpm->errorLog(), 'node hand-off failed')];
        } finally {
            $fpm->stop();
            // Its forwards to the slow upstream are still in flight: dropped, as on any stop.
            $node->stop();
        }
    }

    /** A JSON object of exactly $bytes bytes. */
    private static function json(int $bytes): string
    {
        return '{"hello":"' . str_repeat('x', $bytes - 12) . '"}';
    }
}
