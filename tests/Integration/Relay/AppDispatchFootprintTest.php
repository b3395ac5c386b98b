<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Relay;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;
use WarmHttp\Rig\TempDir;

/**
 * What one PHP-FPM request of seeds/004 (new Client, dispatch(), end of the request) loads, in
 * a process of its own against a real relay: a hand-off the relay takes makes none of the
 * fallback's parts (policy, destination guard, journal, sender, logger) nor anything of
 * relay_sync; a relay that is down still gets the whole fallback, guard and journal included,
 * and the request is sent at the end of that same process.
 */
final class AppDispatchFootprintTest extends TestCase
{
    /** Made only when the relay does not take the request (issue 13 added them; 8 files per FPM request at first). */
    private const FALLBACK_ONLY = [
        'WarmHttp\Relay\App\FallbackEntry',
        'WarmHttp\Relay\App\FallbackJournal',
        'WarmHttp\Relay\App\FallbackPolicy',
        'WarmHttp\Relay\App\FallbackSender',
        'WarmHttp\Relay\Guard\DestinationGuard',
        'WarmHttp\Internal\ErrorLogLogger',
    ];

    /** The process, as an FPM request runs it: prints the classes declared once its shutdown functions ran. */
    private const SCRIPT = <<<'PHP'
        <?php
        require getenv('AUTOLOAD');
        $client = new WarmHttp\Client(['relay' => getenv('RELAY'), 'relay_fallback_dir' => getenv('JOURNAL'), 'relay_allow_private_networks' => true]);
        $client->dispatch($client->createRequest('POST', getenv('URL'))->withBody($client->createStream('{"hello":"world"}')));
        register_shutdown_function(static function (): void {
            echo json_encode(array_values(array_filter(get_declared_classes(), static fn(string $c): bool => str_starts_with($c, 'WarmHttp\\'))));
        });
        PHP;

    private TempDir $dir;

    protected function setUp(): void
    {
        $this->dir = TempDir::create('app-footprint');
    }

    protected function tearDown(): void
    {
        $this->dir->remove();
    }

    public function testAHandOffTheRelayTakesLoadsNoneOfTheFallbackNorRelaySync(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        $origin = FlakyOrigin::start(200);

        $classes = $this->request($relay->address(), $origin->url('/taken'));

        self::assertSame([], array_values(array_intersect(self::FALLBACK_ONLY, $classes)), 'fallback parts made for a hand-off the relay took');
        self::assertSame([], array_values(array_filter($classes, static fn(string $c): bool => str_contains($c, '\Sync'))), 'relay_sync parts loaded by a Client that only dispatches');
        self::assertContains('WarmHttp\Relay\App\DeferredSends', $classes, 'the end of the request still looks at the journal');
        self::assertTrue($origin->await(static fn(array $requests): bool => \count($requests) === 1), 'the relay delivered it');
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'), 'nothing journaled');
    }

    public function testARelayThatIsDownGetsTheWholeFallbackAndTheRequestIsSentAtTheEndOfTheProcess(): void
    {
        $relay = RelayProcess::start(['--allow-private-networks']);
        $address = $relay->address();
        $relay->remove();
        $origin = FlakyOrigin::start(200);

        $classes = $this->request($address, $origin->url('/fell-back'));

        self::assertSame([], array_values(array_diff(self::FALLBACK_ONLY, $classes)), 'the fallback checked the destination, journaled and sent');
        self::assertCount(1, $origin->requests(), 'sent by the same process, at its end');
        self::assertSame([], glob($this->dir->path('journal') . '/*.req'), 'and taken out of the journal');
    }

    /** @return list<string> the WarmHttp classes the process declared, its shutdown functions included */
    private function request(string $relay, string $url): array
    {
        $process = new Process([\PHP_BINARY], null, [
            'AUTOLOAD' => \dirname(__DIR__, 3) . '/vendor/autoload.php',
            'RELAY' => $relay,
            'JOURNAL' => $this->dir->path('journal'),
            'URL' => $url,
        ], self::SCRIPT, 30);
        $process->mustRun();
        $classes = json_decode($process->getOutput(), true, 4, \JSON_THROW_ON_ERROR);
        self::assertIsArray($classes, $process->getOutput());

        return array_values(array_filter($classes, is_string(...)));
    }
}
