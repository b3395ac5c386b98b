<?php

declare(strict_types=1);

namespace WarmHttp\Console;

use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * `--format=text|json` of probe, relay:status and relay:failed. JSON is one document on stdout
 * and nothing else there; its fields are listed in docs/relay.md and docs/benchmarks.md.
 *
 * @internal
 */
enum OutputFormat: string
{
    case Text = 'text';
    case Json = 'json';

    public static function addOption(Command $command): void
    {
        $command->addOption('format', null, InputOption::VALUE_REQUIRED, 'Output format: "text" or "json" (one JSON document on stdout)', self::Text->value);
    }

    /** `--format`, and the `--json` flag relay:status and relay:failed had before it. */
    public static function addOptionWithJsonAlias(Command $command): void
    {
        $command->addOption('json', null, InputOption::VALUE_NONE, 'Deprecated: use --format=json (same output)');
        self::addOption($command);
    }

    /**
     * With the deprecated `--json`: JSON, and a note on stderr saying what to use instead.
     *
     * @throws UsageError an unknown --format value
     */
    public static function fromInputOrAlias(InputInterface $input, OutputInterface $output, string $command): self
    {
        if (!$input->getOption('json')) {
            return self::fromInput($input);
        }
        CommandOutput::note($output, $command . ': --json is deprecated; use --format=json (the same document).');

        return self::Json;
    }

    /** @throws UsageError an unknown value, naming the allowed ones */
    public static function fromInput(InputInterface $input): self
    {
        $value = $input->getOption('format');
        $format = \is_string($value) ? self::tryFrom(strtolower($value)) : null;
        if ($format === null) {
            throw new UsageError(\sprintf('--format must be "text" or "json", got "%s".', \is_scalar($value) ? (string) $value : ''));
        }

        return $format;
    }
}
