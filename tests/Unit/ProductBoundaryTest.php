<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * src/ is what `composer require` installs; the benchmark, the rig and the tests are autoload-dev
 * and not in the package. A product file naming one of them (in a use, a type, a new, or a class
 * name in a string) would break for every user, so it fails here.
 */
final class ProductBoundaryTest extends TestCase
{
    private const TOOLING = ['WarmHttp\\Bench\\', 'WarmHttp\\Rig\\', 'WarmHttp\\Tests\\'];

    public function testNoProductFileReferencesTheTooling(): void
    {
        $src = \dirname(__DIR__, 2) . '/src';
        $offences = [];
        $files = new \RecursiveIteratorIterator(new \RecursiveDirectoryIterator($src, \FilesystemIterator::SKIP_DOTS));
        foreach ($files as $file) {
            \assert($file instanceof \SplFileInfo);
            if ($file->getExtension() !== 'php') {
                continue;
            }
            foreach (self::toolingReferences((string) file_get_contents($file->getPathname())) as $line => $name) {
                $offences[] = substr($file->getPathname(), \strlen($src) + 1) . ":$line $name";
            }
        }

        self::assertGreaterThan(50, iterator_count($files), 'the scan found the product files');
        self::assertSame([], $offences, 'src/ must not use bench/, rig/ or tests/ (autoload-dev, not shipped)');
    }

    /** @return iterable<string, array{string, bool}> */
    public static function samples(): iterable
    {
        yield 'use' => ['<?php namespace WarmHttp\\Console; use WarmHttp\\Bench\\Runner;', true];
        yield 'fully qualified' => ['<?php namespace WarmHttp; new \\WarmHttp\\Rig\\Rig();', true];
        yield 'relative to the namespace' => ['<?php namespace WarmHttp; Tests\\Support\\FakeSdk::class;', true];
        yield 'class name in a string' => ['<?php class_exists(\'WarmHttp\\\\Bench\\\\Console\\\\BenchCommand\');', true];
        yield 'the product itself' => ['<?php namespace WarmHttp\\Relay; use WarmHttp\\Internal\\CurlPool; use Psr\\Log\\LoggerInterface;', false];
        yield 'a word in a comment' => ['<?php // WarmHttp\\Bench measures this', false];
    }

    #[DataProvider('samples')]
    public function testTheScanCatchesEveryWayOfNamingAClass(string $code, bool $caught): void
    {
        self::assertSame($caught, self::toolingReferences($code) !== []);
    }

    /** @return array<int, string> line => the tooling name it references */
    private static function toolingReferences(string $code): array
    {
        $found = [];
        $namespace = '';
        $tokens = \PhpToken::tokenize($code);
        foreach ($tokens as $i => $token) {
            if ($token->is(T_NAMESPACE) && isset($tokens[$i + 2])) {
                $namespace = $tokens[$i + 2]->text;
            }
            foreach (self::namesIn($token, $namespace) as $name) {
                if (self::isTooling($name)) {
                    $found[$token->line] = $name;
                }
            }
        }

        return $found;
    }

    /** @return list<string> the class names a token may stand for */
    private static function namesIn(\PhpToken $token, string $namespace): array
    {
        return match ($token->id) {
            T_NAME_FULLY_QUALIFIED => [ltrim($token->text, '\\')],
            // Absolute in a use statement, relative to the namespace elsewhere: check both.
            T_NAME_QUALIFIED => [$token->text, $namespace . '\\' . $token->text],
            T_CONSTANT_ENCAPSED_STRING => [ltrim(str_replace('\\\\', '\\', substr($token->text, 1, -1)), '\\')],
            default => [],
        };
    }

    private static function isTooling(string $name): bool
    {
        foreach (self::TOOLING as $prefix) {
            if (str_starts_with($name, $prefix)) {
                return true;
            }
        }

        return false;
    }
}
