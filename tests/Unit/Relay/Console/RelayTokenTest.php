<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Relay\Console;

use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;
use WarmHttp\Relay\Console\RelayToken;

final class RelayTokenTest extends TestCase
{
    private const TOKEN = '0123456789abcdef0123456789abcdef';

    private string $file = '';

    protected function setUp(): void
    {
        $this->file = sys_get_temp_dir() . '/warmhttp-token-' . getmypid() . '-' . bin2hex(random_bytes(4));
    }

    protected function tearDown(): void
    {
        @unlink($this->file);
    }

    public function testAPrivateFileGivesTheTokenWithoutItsTrailingNewline(): void
    {
        $this->write(self::TOKEN . "\n", 0o600);

        $token = RelayToken::resolve(null, $this->file, []);

        self::assertSame([self::TOKEN, false], [$token->value, $token->onCommandLine]);
    }

    /** @return iterable<string, array{int}> */
    public static function modesOthersCanUse(): iterable
    {
        yield 'world-readable' => [0o644];
        yield 'group-readable' => [0o640];
        yield 'group-writable' => [0o620];
        yield 'world-writable' => [0o602];
    }

    #[DataProvider('modesOthersCanUse')]
    public function testAFileOtherUsersMayReadOrWriteIsRefusedWithTheFix(int $mode): void
    {
        $this->write(self::TOKEN, $mode);

        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage(\sprintf('--token-file=%s is readable or writable by other users (mode %04o)', $this->file, $mode));
        $this->expectExceptionMessage('chmod 600 ' . $this->file);

        RelayToken::resolve(null, $this->file, []);
    }

    public function testAMissingFileIsNamed(): void
    {
        $this->expectExceptionMessage('--token-file=' . $this->file . ': no such regular file.');

        RelayToken::resolve(null, $this->file, []);
    }

    public function testTheEnvironmentGivesTheTokenWhenNoOptionDoes(): void
    {
        self::assertSame(self::TOKEN, RelayToken::resolve(null, null, [RelayToken::ENV => self::TOKEN])->value);
        self::assertNull(RelayToken::resolve(null, null, [RelayToken::ENV => ''])->value);
        self::assertNull(RelayToken::resolve(null, null, [])->value);
    }

    public function testTheFileWinsOverTheEnvironment(): void
    {
        $this->write(self::TOKEN, 0o600);

        self::assertSame(self::TOKEN, RelayToken::resolve(null, $this->file, [RelayToken::ENV => str_repeat('e', 40)])->value);
    }

    public function testTheDeprecatedOptionStillWorksAndIsFlagged(): void
    {
        $token = RelayToken::resolve(self::TOKEN, null, []);

        self::assertSame([self::TOKEN, true], [$token->value, $token->onCommandLine]);
        self::assertStringContainsString('--token-file=PATH', RelayToken::deprecation());
    }

    public function testBothOptionsAtOnceAreRefused(): void
    {
        $this->write(self::TOKEN, 0o600);

        $this->expectExceptionMessage('Pass the token once');

        RelayToken::resolve(self::TOKEN, $this->file, []);
    }

    /** @return iterable<string, array{string, string}> */
    public static function shortTokens(): iterable
    {
        yield 'option' => ['s3cret', 'The token from --token is 6 characters long; the relay needs at least 32'];
        yield '31 characters' => [str_repeat('a', 31), 'is 31 characters long'];
    }

    #[DataProvider('shortTokens')]
    public function testAShortTokenIsRefusedNamingWhereItCameFrom(string $token, string $message): void
    {
        $this->expectException(\InvalidArgumentException::class);
        $this->expectExceptionMessage($message);

        RelayToken::resolve($token, null, []);
    }

    public function testAShortTokenFromTheEnvironmentNamesTheVariable(): void
    {
        $this->expectExceptionMessage('The token from $WARMHTTP_RELAY_TOKEN is 5 characters long');

        RelayToken::resolve(null, null, [RelayToken::ENV => 'short']);
    }

    public function testATokenThatCannotTravelAsAHeaderIsRefused(): void
    {
        $this->write(self::TOKEN . " with spaces\n", 0o600);

        $this->expectExceptionMessage('must be printable ASCII without spaces');

        RelayToken::resolve(null, $this->file, []);
    }

    private function write(string $contents, int $mode): void
    {
        file_put_contents($this->file, $contents);
        chmod($this->file, $mode);
    }
}
