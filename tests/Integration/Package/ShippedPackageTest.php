<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Package;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Process\Process;

/**
 * What a user installs: the files `git archive` exports (Packagist's dist zips), installed with
 * `composer install --no-dev`. The benchmark, the rig, the tests and symfony/process stay home.
 */
final class ShippedPackageTest extends TestCase
{
    private static string $root;
    private static string $package;

    /** What `git archive` exported, made once for the class. */
    private static string $archive = '';

    public static function setUpBeforeClass(): void
    {
        self::$root = \dirname(__DIR__, 3);
        self::$package = self::$root . '/build/package-test-' . getmypid();
        self::shell(['rm', '-rf', self::$package]);
        mkdir(self::$package, 0777, true);
        self::$archive = self::archive();
        self::shell(['tar', '-x', '-C', self::$package], self::$archive);
        self::shell(['composer', 'install', '--no-dev', '--no-interaction', '--no-progress', '--optimize-autoloader'], null, self::$package);
    }

    public static function tearDownAfterClass(): void
    {
        self::shell(['rm', '-rf', self::$package]);
    }

    public function testTheArchiveHoldsTheProductAndNoTooling(): void
    {
        $files = explode("\n", trim(self::shell(['tar', '-t'], self::$archive)));

        foreach (['src/Client.php', 'bin/warmhttp', 'config/warmhttp.php', 'composer.json', 'README.md', 'docs/relay.md'] as $shipped) {
            self::assertContains($shipped, $files);
        }
        $tooling = array_filter($files, static fn(string $file): bool => preg_match('~^(tests|bench|rig|docs/bench-results|scripts|\.ci)/|^(phpunit\.xml\.dist|phpstan\.neon\.dist|\.php-cs-fixer\.dist\.php|\.git\w+)$~', $file) === 1);
        self::assertSame([], array_values($tooling));
    }

    public function testGitAttributesExportIgnoreTheToolingFolders(): void
    {
        $output = self::shell(['git', 'check-attr', 'export-ignore', '--', 'tests', 'bench', 'rig', 'docs/bench-results', '.ci', 'scripts', 'src', 'bin/warmhttp'], null, self::$root);

        self::assertSame(
            ['tests' => 'set', 'bench' => 'set', 'rig' => 'set', 'docs/bench-results' => 'set', '.ci' => 'set', 'scripts' => 'set', 'src' => 'unspecified', 'bin/warmhttp' => 'unspecified'],
            self::attributes($output),
        );
    }

    public function testTheNoDevAutoloaderKnowsNoBenchRigOrTestClass(): void
    {
        /** @var array<string, string> $classmap */
        $classmap = require self::$package . '/vendor/composer/autoload_classmap.php';
        /** @var array<string, list<string>> $psr4 */
        $psr4 = require self::$package . '/vendor/composer/autoload_psr4.php';

        self::assertArrayHasKey('WarmHttp\\Client', $classmap);
        $tooling = preg_grep('~^WarmHttp\\\\(Bench|Rig|Tests)\\\\~', [...array_keys($classmap), ...array_keys($psr4)]);
        self::assertSame([], array_values($tooling ?: []));
    }

    public function testSymfonyProcessIsNotInstalled(): void
    {
        self::assertDirectoryDoesNotExist(self::$package . '/vendor/symfony/process');
        self::assertDirectoryExists(self::$package . '/vendor/symfony/console');
    }

    public function testTheCliListsProbeAndRelayButNoBench(): void
    {
        $commands = explode("\n", self::shell([\PHP_BINARY, 'bin/warmhttp', 'list', '--raw'], null, self::$package));
        $names = array_map(static fn(string $line): string => strtok($line, ' ') ?: '', $commands);

        foreach (['probe', 'relay', 'relay:status', 'relay:failed', 'relay:retry'] as $command) {
            self::assertContains($command, $names);
        }
        self::assertNotContains('bench', $names);
        self::assertNotContains('demo', $names);
    }

    /** The working tree as `git archive` exports it, through a scratch index (the repository's own stays untouched). */
    private static function archive(): string
    {
        $index = self::$package . '.index';
        $environment = ['GIT_INDEX_FILE' => $index];
        self::shell(['git', 'add', '-A', '.'], null, self::$root, $environment);
        $tree = trim(self::shell(['git', 'write-tree'], null, self::$root, $environment));
        $archive = self::shell(['git', 'archive', '--worktree-attributes', $tree], null, self::$root);
        unlink($index);

        return $archive;
    }

    /** @return array<string, string> path => its export-ignore value */
    private static function attributes(string $checkAttrOutput): array
    {
        $values = [];
        foreach (explode("\n", trim($checkAttrOutput)) as $line) {
            [$path, , $value] = explode(': ', $line);
            $values[$path] = $value;
        }

        return $values;
    }

    /**
     * @param list<string>          $command
     * @param array<string, string> $environment
     */
    private static function shell(array $command, ?string $input = null, ?string $cwd = null, array $environment = []): string
    {
        $process = new Process($command, $cwd ?? self::$root, $environment, $input, 300);
        $process->mustRun();

        return $process->getOutput();
    }
}
