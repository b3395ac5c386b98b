<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

use GuzzleHttp\Exception\RequestException;
use Psr\Http\Message\ResponseInterface;

/**
 * What the caller saw: the response (its class, status, reason, version, headers, body), or
 * the exception (class, message, the response it carries, its handler context's errno and keys).
 * Values are normalised as Normalise says.
 */
final class Seen
{
    /** @param array<string, mixed> $facts */
    private function __construct(public readonly array $facts, public readonly ResponseInterface|\Throwable|null $outcome) {}

    public static function of(ResponseInterface|\Throwable $outcome, int $port): self
    {
        return new self($outcome instanceof ResponseInterface ? self::response($outcome) : self::exception($outcome, $port), $outcome);
    }

    /** @param array<string, mixed> $facts whatever a scenario chose to report */
    public static function facts(array $facts): self
    {
        return new self($facts, null);
    }

    /** @return array<string, mixed> */
    private static function response(ResponseInterface $response): array
    {
        return [
            'class' => $response::class,
            'status' => $response->getStatusCode(),
            'reason' => $response->getReasonPhrase(),
            'version' => $response->getProtocolVersion(),
            'headers' => Normalise::responseHeaders($response->getHeaders()),
            'body' => (string) $response->getBody(),
        ];
    }

    /** @return array<string, mixed> */
    private static function exception(\Throwable $e, int $port): array
    {
        $facts = ['exception' => $e::class, 'message' => Normalise::text($e->getMessage(), $port)];
        if ($e instanceof RequestException) {
            $response = $e->getResponse();
            $facts['response'] = $response === null ? null : self::response($response);
            $context = $e->getHandlerContext();
            $facts['errno'] = $context['errno'] ?? null;
            $keys = array_keys($context);
            sort($keys);
            $facts['context'] = $keys;
        }

        return $facts;
    }
}
