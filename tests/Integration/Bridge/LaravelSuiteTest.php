<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;

/**
 * Runs the Laravel bridge's own suite (tests/Integration/Bridge/laravel/tests) in a separate PHP process:
 * it needs laravel/framework, installed by a test-only Composer project into
 * build/bridge-laravel/vendor so the library's own dependencies stay free of it.
 */
final class LaravelSuiteTest extends TestCase
{
    public function testTheLaravelBridgeSuitePasses(): void
    {
        $root = \dirname(__DIR__, 3);
        if (!is_file($root . '/build/bridge-laravel/vendor/autoload.php')) {
            self::markTestSkipped('The Laravel test project is not installed. Run: composer --working-dir=tests/Integration/Bridge/laravel update');
        }
        $process = new Process([\PHP_BINARY, $root . '/build/bridge-laravel/vendor/bin/phpunit', '-c', $root . '/tests/Integration/Bridge/laravel/phpunit.xml', '--no-progress'], $root);
        $process->setTimeout(300);

        $process->run();

        self::assertTrue($process->isSuccessful(), $process->getOutput() . $process->getErrorOutput());
        self::assertMatchesRegularExpression('/^OK \(\d+ tests?/m', $process->getOutput());
    }
}
