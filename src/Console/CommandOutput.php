<?php

declare(strict_types=1);

namespace WarmHttp\Console;

use Symfony\Component\Console\Formatter\OutputFormatter;
use Symfony\Component\Console\Output\ConsoleOutputInterface;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * The two streams of every command: results on stdout, errors and notes on stderr, so
 * `warmhttp relay:status --format=json | jq` never sees an error message as data.
 *
 * @internal
 */
final class CommandOutput
{
    public static function stderr(OutputInterface $output): OutputInterface
    {
        return $output instanceof ConsoleOutputInterface ? $output->getErrorOutput() : $output;
    }

    /** One error line on stderr; the message is printed as given (no console tags inside). */
    public static function error(OutputInterface $output, string $message): void
    {
        self::stderr($output)->writeln('<error>' . OutputFormatter::escape($message) . '</error>');
    }

    /** A note that is not the result (a deprecation, a hint): stderr, unstyled. */
    public static function note(OutputInterface $output, string $message): void
    {
        self::stderr($output)->writeln($message, OutputInterface::OUTPUT_RAW);
    }

    /**
     * The one JSON document of a run, raw: a URI or an error text holding "<error>" must not be
     * read as a console style tag. Floats keep their ".0", so a field never changes type.
     *
     * @param array<mixed> $document
     */
    public static function json(OutputInterface $output, array $document): void
    {
        $output->writeln(json_encode($document, \JSON_PRETTY_PRINT | \JSON_UNESCAPED_SLASHES | \JSON_PRESERVE_ZERO_FRACTION | \JSON_INVALID_UTF8_SUBSTITUTE | \JSON_THROW_ON_ERROR), OutputInterface::OUTPUT_RAW);
    }
}
