<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit\Console;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Console\Input\ArrayInput;
use Symfony\Component\Console\Input\InputDefinition;
use Symfony\Component\Console\Input\InputOption;
use WarmHttp\Console\OutputFormat;
use WarmHttp\Console\UsageError;

final class OutputFormatTest extends TestCase
{
    public function testTextByDefaultAndJsonOnRequest(): void
    {
        self::assertSame(OutputFormat::Text, OutputFormat::fromInput(self::input([])));
        self::assertSame(OutputFormat::Json, OutputFormat::fromInput(self::input(['--format' => 'json'])));
    }

    public function testAnUnknownFormatNamesTheAllowedOnes(): void
    {
        $this->expectException(UsageError::class);
        $this->expectExceptionMessage('--format must be "text" or "json", got "yaml".');

        OutputFormat::fromInput(self::input(['--format' => 'yaml']));
    }

    /** @param array<string, string> $options */
    private static function input(array $options): ArrayInput
    {
        return new ArrayInput($options, new InputDefinition([new InputOption('format', null, InputOption::VALUE_REQUIRED, '', 'text')]));
    }
}
