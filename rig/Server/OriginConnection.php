<?php

declare(strict_types=1);

namespace WarmHttp\Rig\Server;

/**
 * One client connection of the raw origin: input buffer, pending reply, output buffer.
 *
 * @internal test/bench tooling
 */
final class OriginConnection
{
    public string $in = '';
    public string $out = '';
    public ?OriginReply $reply = null;
    public float $replyAt = 0.0;
    /** @var OriginReply::FIN|OriginReply::RST|null */
    public ?string $doom = null;
    public bool $stalled = false;
    public bool $closed = false;

    /**
     * @param resource $stream
     */
    public function __construct(public readonly mixed $stream) {}

    public function read(): void
    {
        $data = @fread($this->stream, 65536);
        if ($data === false || ($data === '' && feof($this->stream))) {
            $this->close(OriginReply::FIN);

            return;
        }
        if (!$this->stalled) {
            $this->in .= $data;
        }
    }

    public function write(): void
    {
        $written = @fwrite($this->stream, $this->out);
        if ($written === false) {
            $this->close(OriginReply::RST);

            return;
        }
        $this->out = (string) substr($this->out, $written);
    }

    public function close(string $how): void
    {
        if (!$this->closed) {
            $this->closed = true;
            SocketCloser::close($this->stream, $how);
        }
    }

    public function busy(): bool
    {
        return $this->reply !== null || $this->out !== '' || $this->stalled;
    }
}
