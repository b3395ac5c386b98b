<?php

declare(strict_types=1);

namespace WarmHttp\Console;

use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;

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
