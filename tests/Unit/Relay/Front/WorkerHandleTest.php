<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Front;

use PHPUnit\Framework\TestCase;
use Psr\Log\NullLogger;
use WarmHttp\Relay\Front\WorkerHandle;

/** The --ack=redis pipes between the front and a worker (here a small PHP child standing in for it). */
final class WorkerHandleTest extends TestCase
{
    public function testTheWorkerIsWokenAndItsReportsArriveAsWholeLines(): void
    {
        // Waits for a wake byte on fd 4, then reports in two writes, the second ending a line.
        $child = '$w = fopen("php://fd/4", "r"); fread($w, 1); $r = fopen("php://fd/3", "w"); fwrite($r, "2:10\n2:4"); fflush($r); usleep(100000); fwrite($r, "0\n");';
        $handle = new WorkerHandle([\PHP_BINARY, '-r', $child], new NullLogger(), [], true);
        $handle->start();
        $handle->wake();

        self::assertSame("2:10\n", $this->readUntilLine($handle), 'the unfinished "2:4" is kept back');
        self::assertSame("2:40\n", $this->readUntilLine($handle));
        $handle->stop(1.0);
    }

    public function testWithoutAckPipesThereIsNothingToReadOrWake(): void
    {
        $handle = new WorkerHandle([\PHP_BINARY, '-r', 'usleep(1000);'], new NullLogger());
        $handle->start();
        $handle->wake();

        self::assertNull($handle->reportPipe());
        self::assertSame('', $handle->readReports());
        $handle->stop(1.0);
    }

    private function readUntilLine(WorkerHandle $handle): string
    {
        $deadline = microtime(true) + 5.0;
        do {
            $pipe = $handle->reportPipe();
            self::assertNotNull($pipe);
            $read = [$pipe];
            $write = $except = null;
            stream_select($read, $write, $except, 0, 200_000);
            $lines = $handle->readReports();
        } while ($lines === '' && microtime(true) < $deadline);

        return $lines;
    }
}
