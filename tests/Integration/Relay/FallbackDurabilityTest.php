<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Exception\ProcessSignaledException;
use Symfony\Component\Process\Process;
use WarmHttp\Client;
use WarmHttp\Exception\RequestException;
use WarmHttp\Relay\App\DeferredSends;
use WarmHttp\Rig\TempDir;

/**
 * dispatch()'s fallback against real processes: a relay killed for real, an origin on loopback
 * counting requests by Idempotency-Key, app processes that exit or are SIGKILLed, and the
 * journal on disk in between.
 */
final class FallbackDurabilityTest extends TestCase
{
    private TempDir $dir;

    protected function setUp(): void
    {
        $this->dir = TempDir::create('fallback');
    }

    protected function tearDown(): void
    {
        $this->dir->remove();
    }

    public function testTheFallbackRefusesWhatTheRelaysDefaultPolicyRefusesBeforeSendingOrStoringAnything(): void
    {
        $origin = FlakyOrigin::start(200);
        // The relay accepts private destinations, but rejects the body's size: the app must not
        // then send to 127.0.0.1 itself, since it cannot know the relay's policy.
        $relay = RelayProcess::start(['--allow-private-networks', '--max-body=1024']);
        $client = new Client(['relay' => $relay->address(), 'relay_fallback_dir' => $this->dir->path('journal'), 'logger' => new MemoryLogger()]);
        try {
            $client->dispatch($client->createRequest('POST', $origin->url('/too-big'))->withBody($client->createStream(str_repeat('x', 4096))));
            self::fail('dispatch() should refuse the loopback destination');
        } catch (RequestException $e) {
            self::assertStringContainsString('the relay answered 413', $e->getMessage());
            self::assertStringContainsString('"relay_allow_private_networks" => true', $e->getMessage());
        }
        $relay->kill();
        try {
            $client->dispatch($client->createRequest('POST', $origin->url('/relay-down')));
            self::fail('dispatch() should refuse the loopback destination with the relay down too');
        } catch (RequestException $e) {
            self::assertStringContainsString('127.0.0.1', $e->getMessage());
        }
        DeferredSends::flush();
        usleep(200_000);
        self::assertSame([], $origin->requests(), 'nothing reached the refused destination');
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'), 'nothing was journaled');
        $relay->remove();
    }

    public function testGivenTheRelaysPolicyTheFallbackSendsItOnceAtTheEndOfTheUnitOfWork(): void
    {
        $origin = FlakyOrigin::start(200);
        $relay = RelayProcess::start(['--allow-private-networks', '--max-body=1024']);
        $logger = new MemoryLogger();
        $client = new Client(['relay' => $relay->address(), 'relay_allow_private_networks' => true, 'relay_fallback_dir' => $this->dir->path('journal'), 'logger' => $logger]);
        $client->dispatch($client->createRequest('POST', $origin->url('/big'))->withBody($client->createStream(str_repeat('x', 4096))));
        $entries = glob($this->dir->path('journal') . '/*.req') ?: [];
        self::assertCount(1, $entries, 'journaled before dispatch() returned');
        self::assertSame(0600, fileperms($entries[0]) & 0777);
        self::assertSame(0700, fileperms($this->dir->path('journal')) & 0777);
        self::assertSame([], $origin->requests(), 'not sent before the end of the unit of work');

        \WarmHttp\Pool::reset(); // a worker's end of request
        self::assertCount(1, $origin->requests());
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'));
        self::assertNotEmpty($logger->contexts('Deferred dispatch sent'));
        $relay->remove();
    }

    public function testANameIsClassifiedByWhatItResolvesToAndAnAllowedHostIsSentPinned(): void
    {
        $origin = FlakyOrigin::start(200);
        $named = str_replace('127.0.0.1', 'localhost', $origin->url('/named'));
        $down = 'unix://' . $this->dir->path('no-relay.sock');
        $strict = new Client(['relay' => $down, 'relay_fallback_dir' => $this->dir->path('journal'), 'logger' => new MemoryLogger()]);
        try {
            $strict->dispatch($strict->createRequest('POST', $named));
            self::fail('localhost resolves to loopback: refused');
        } catch (RequestException $e) {
            self::assertStringContainsString('"relay_allowed_hosts" => ["localhost"]', $e->getMessage());
        }

        $allowed = new Client(['relay' => $down, 'relay_allowed_hosts' => ['localhost'], 'relay_fallback_dir' => $this->dir->path('journal'), 'logger' => new MemoryLogger()]);
        $allowed->dispatch($allowed->createRequest('POST', $named));
        \WarmHttp\Pool::reset();

        self::assertSame(['/named'], array_column($origin->requests(), 'uri'), 'only the allowed one, once');
    }

    public function testAJournaledRequestOutlivesItsProcessAndAnotherProcessDeliversIt(): void
    {
        $origin = FlakyOrigin::start(503);
        $relay = RelayProcess::start(['--allow-private-networks']);
        $relay->kill();
        // The first process dispatches (relay dead: journaled), and its shutdown flush meets the
        // destination down: the entry stays.
        $first = $this->app(['FALLBACK_RELAY' => $relay->address(), 'FALLBACK_URL' => $origin->url('/hook?n=1'), 'FALLBACK_KEY' => 'key-outlives', 'FALLBACK_END' => 'exit']);
        self::assertStringContainsString('stays in the fallback journal', $first->getErrorOutput());
        self::assertSame([503], array_column($origin->requests(), 'status'));
        self::assertCount(1, glob($this->dir->path('journal') . '/*.req') ?: []);

        $origin->answer(200);
        sleep(2); // past the retry's backoff (1 s at most after one attempt)
        // A second process that dispatches nothing at all: its end of unit of work sends it.
        $second = $this->app(['FALLBACK_RELAY' => $relay->address(), 'FALLBACK_END' => 'exit']);
        self::assertStringContainsString('Deferred dispatch sent', $second->getErrorOutput());
        $delivered = array_filter($origin->requests(), static fn(array $r): bool => $r['key'] === 'key-outlives' && $r['status'] === 200);
        self::assertCount(1, $delivered, 'delivered exactly once, with its Idempotency-Key');
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'));
        $relay->remove();
    }

    public function testARequestJournaledByASigkilledProcessIsTakenOverByTheRelayOnceItIsBack(): void
    {
        $origin = FlakyOrigin::start(200);
        $relay = RelayProcess::start(['--allow-private-networks']);
        $relay->kill();
        $this->app(['FALLBACK_RELAY' => $relay->address(), 'FALLBACK_URL' => $origin->url('/hook?n=2'), 'FALLBACK_KEY' => 'key-killed', 'FALLBACK_END' => 'kill'], true);
        self::assertCount(1, glob($this->dir->path('journal') . '/*.req') ?: [], 'the request survived a SIGKILL before any flush');
        self::assertSame([], $origin->requests());

        $relay->launch();
        $next = $this->app(['FALLBACK_RELAY' => $relay->address(), 'FALLBACK_END' => 'reset']);
        self::assertStringContainsString('taken over by the relay', $next->getErrorOutput());
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'));
        self::assertTrue($origin->await(static fn(array $rows): bool => \count($rows) >= 1), 'the relay delivered it');
        self::assertSame(['key-killed'], array_column($origin->requests(), 'key'));
        $relay->remove();
    }

    public function testTwoProcessesFlushingTogetherSendEachEntryOnce(): void
    {
        $origin = FlakyOrigin::start(200);
        $relay = RelayProcess::start(['--allow-private-networks']);
        $relay->kill();
        for ($i = 0; $i < 20; ++$i) {
            // Each process journals one and is killed before sending it.
            $this->app(['FALLBACK_RELAY' => $relay->address(), 'FALLBACK_URL' => $origin->url("/hook?n=$i"), 'FALLBACK_KEY' => "key-$i", 'FALLBACK_END' => 'kill'], true);
        }
        self::assertCount(20, glob($this->dir->path('journal') . '/*.req') ?: []);
        $flushers = [];
        for ($j = 0; $j < 4; ++$j) {
            $flushers[] = $process = $this->process(['FALLBACK_RELAY' => $relay->address(), 'FALLBACK_END' => 'reset']);
            $process->start();
        }
        foreach ($flushers as $process) {
            $process->wait();
        }
        $keys = array_column($origin->requests(), 'key');
        sort($keys);
        $expected = array_map(static fn(int $i): string => "key-$i", range(0, 19));
        sort($expected);
        self::assertSame($expected, $keys, 'every entry sent exactly once');
        $relay->remove();
    }

    public function testARequestTheDestinationRefusesIsDeadLetteredLoudlyNotRetriedForever(): void
    {
        $origin = FlakyOrigin::start(400);
        $logger = new MemoryLogger();
        $client = new Client(['relay' => 'unix://' . $this->dir->path('no-relay.sock'), 'relay_allow_private_networks' => true, 'relay_fallback_dir' => $this->dir->path('journal'), 'logger' => $logger]);

        $client->dispatch($client->createRequest('POST', $origin->url('/rejects')));
        \WarmHttp\Pool::reset();

        $dead = $logger->contexts('Deferred dispatch GAVE UP');
        self::assertCount(1, $dead);
        self::assertStringContainsString('HTTP 400', (string) ($dead[0]['outcome'] ?? '')); // @phpstan-ignore cast.string
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'));
        self::assertCount(1, glob($this->dir->path('journal') . '/dead/*.req') ?: [], 'kept for an operator, with its reason');
        \WarmHttp\Pool::reset();
        self::assertCount(1, $origin->requests(), 'sent once');
    }

    public function testAnUnwritableJournalIsSaidLoudlyAndTheRequestStillGoesOutAtTheEndOfTheUnitOfWork(): void
    {
        $origin = FlakyOrigin::start(200);
        file_put_contents($this->dir->path('a-file'), '');
        $logger = new MemoryLogger();
        $client = new Client(['relay' => 'unix://' . $this->dir->path('no-relay.sock'), 'relay_allow_private_networks' => true, 'relay_fallback_dir' => $this->dir->path('a-file/journal'), 'logger' => $logger]);

        $client->dispatch($client->createRequest('POST', $origin->url('/in-memory')));

        $error = $logger->contexts('Relay hand-off failed and the fallback journal could not be written');
        self::assertCount(1, $error);
        self::assertStringContainsString('relay_fallback_dir', (string) ($error[0]['journal_error'] ?? '')); // @phpstan-ignore cast.string
        self::assertSame(1, DeferredSends::pending());
        \WarmHttp\Pool::reset();
        self::assertSame(0, DeferredSends::pending());
        self::assertCount(1, $origin->requests());
    }

    /**
     * Runs one app process to its end; $killed: it SIGKILLs itself after dispatching.
     *
     * @param array<string, string> $env
     */
    private function app(array $env, bool $killed = false): Process
    {
        $process = $this->process($env);
        try {
            $process->run();
            self::assertFalse($killed, 'the process should have been killed');
            self::assertSame(0, $process->getExitCode(), $process->getErrorOutput());
        } catch (ProcessSignaledException $e) {
            self::assertTrue($killed && $e->getSignal() === \SIGKILL, $process->getErrorOutput());
        }

        return $process;
    }

    /** @param array<string, string> $env */
    private function process(array $env): Process
    {
        $process = new Process([\PHP_BINARY, __DIR__ . '/fallback/dispatch.php'], null, $env + ['FALLBACK_DIR' => $this->dir->path('journal'), 'FALLBACK_URL' => '', 'FALLBACK_KEY' => '']);
        $process->setTimeout(30);

        return $process;
    }
}
