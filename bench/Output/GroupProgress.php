<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

use Symfony\Component\Console\Output\Output;
use Symfony\Component\Console\Output\OutputInterface;

/**
 * One group's progress output: its heading goes out just before the group's first progress
 * line, so a group the run leaves out (--only, --preset) prints no heading at all.
 *
 * @internal bench tooling
 */
final class GroupProgress extends Output
{
    private bool $headed = false;
    private bool $lineOpen = false;

    public function __construct(private readonly OutputInterface $progress, private readonly string $heading)
    {
        parent::__construct($progress->getVerbosity(), $progress->isDecorated(), $progress->getFormatter());
    }

    /**
     * Ends the last progress line where the output cannot erase it (a file, a pipe): there a
     * progress bar leaves its last line open, and the next heading would run on from it.
     */
    public function finish(): void
    {
        if ($this->lineOpen && !$this->isDecorated()) {
            $this->progress->writeln('');
        }
    }

    protected function doWrite(string $message, bool $newline): void
    {
        if (!$this->headed) {
            $this->headed = true;
            $this->progress->writeln($this->heading);
        }
        $this->progress->write($message, $newline, self::OUTPUT_RAW);
        $this->lineOpen = !$newline && !str_ends_with($message, "\n");
    }
}
