<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Wire;

/**
 * What came on the relay socket is not a request the relay accepts; carries the status to answer
 * with. The connection is closed after the answer: its byte stream can no longer be trusted.
 *
 * A size refusal (413, 431) also carries the request's target when it could be read, and its
 * head when that was complete: the relay checks the destination first, so a request to a
 * refused destination is told 403 whatever its size, and the app does not send it by itself.
 *
 * @internal
 */
final class BadWireRequest extends \RuntimeException
{
    public function __construct(
        public readonly int $status,
        string $message,
        public readonly ?string $target = null,
        public readonly ?RequestHead $head = null,
    ) {
        parent::__construct($message);
    }

    public function withHead(RequestHead $head): self
    {
        return new self($this->status, $this->getMessage(), $head->target, $head);
    }
}
