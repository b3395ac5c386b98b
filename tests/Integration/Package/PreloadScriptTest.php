<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Package;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;

/**
 * src/preload.php as opcache.preload, in a PHP whose opcache preloads it at start-up (the CLI
 * with opcache.enable_cli, as PHP-FPM's master does): no warning, and the classes a relay_sync
 * first call needs are linked before the script runs, with no file of the package included.
 */
final class PreloadScriptTest extends TestCase
{
    public function testItPreloadsTheClassesOfARelaySyncFirstCallWithoutAWarning(): void
    {
        $answer = $this->runPreloaded(<<<'PHP'
            $preloaded = opcache_get_status(false)['preload_statistics']['classes'] ?? [];
            echo json_encode([
                'preloaded' => $preloaded,
                'client' => class_exists(WarmHttp\Client::class, false),
                'included' => count(get_included_files()),
            ]);
            PHP);

        self::assertTrue($answer['client'], 'WarmHttp\Client is declared without autoloading');
        self::assertSame(0, $answer['included'], 'no file included at run time (the code runs from -r)');
        self::assertIsArray($answer['preloaded']);
        foreach (['WarmHttp\Client', 'WarmHttp\Internal\Options', 'WarmHttp\Relay\App\SyncRoute', 'WarmHttp\Relay\App\SyncStream', 'WarmHttp\Relay\App\SyncAnswerReader', 'WarmHttp\Response', 'WarmHttp\Internal\LazyRequest', 'WarmHttp\Relay\App\Dispatcher', 'WarmHttp\Internal\CurlPool'] as $class) {
            self::assertContains($class, $answer['preloaded']);
        }
    }

    public function testEveryClassItNamesExists(): void
    {
        $source = (string) file_get_contents(\dirname(__DIR__, 3) . '/src/preload.php');
        preg_match_all('/^\s+([A-Z][A-Za-z0-9\\\\]+)::class,$/m', $source, $m);

        self::assertGreaterThan(30, \count($m[1]));
        foreach ($m[1] as $class) {
            self::assertTrue(class_exists($class) || interface_exists($class), $class . ' (named in src/preload.php) exists');
        }
    }

    /** @return array<string, mixed> what $code echoed as JSON, run with src/preload.php preloaded */
    private function runPreloaded(string $code): array
    {
        $options = ['-d', 'opcache.enable_cli=1', '-d', 'opcache.preload=' . \dirname(__DIR__, 3) . '/src/preload.php', '-d', 'display_errors=stderr', '-d', 'error_reporting=-1'];
        if (\function_exists('posix_geteuid') && posix_geteuid() === 0) {
            $options = [...$options, '-d', 'opcache.preload_user=root']; // PHP refuses to preload as root without it
        }
        $php = new Process([\PHP_BINARY, ...$options, '-r', $code]);
        $php->mustRun();

        self::assertSame('', $php->getErrorOutput(), 'preloading warned');
        $answer = json_decode($php->getOutput(), true);
        self::assertIsArray($answer, $php->getOutput());

        /** @var array<string, mixed> $answer */
        return $answer;
    }
}
