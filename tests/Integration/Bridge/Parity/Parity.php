<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Bridge\Parity;

use GuzzleHttp\Client as GuzzleClient;
use GuzzleHttp\HandlerStack;
use Psr\Http\Message\ResponseInterface;
use WarmHttp\Bridge\Guzzle\Handler;

/**
 * Runs the same case through `new GuzzleHttp\Client(['handler' => HandlerStack::create()])`
 * (Guzzle's default handler, curl here) and through `HandlerStack::create(new Handler())`,
 * one after the other against one EchoOrigin, each on a fresh Guzzle Client and handler (as
 * Guzzle's default is one per Client; the pool under WarmHttp's is process-wide), and returns what
 * reached the origin and what the caller saw on each side.
 */
final class Parity
{
    public function __construct(public readonly EchoOrigin $origin) {}

    /**
     * One `$client->request()` per side. Options may be a closure that builds them, for options
     * with state (a sink, a callback that records): each side gets its own.
     *
     * @param array<string, mixed>|\Closure(): array<string, mixed> $options
     * @param Answer|list<Answer>|null                                $answers for $path (query left out); null: 200 "ok"
     */
    public function request(string $method, string $path, array|\Closure $options = [], Answer|array|null $answers = null): ParityResult
    {
        $key = (string) parse_url($path, \PHP_URL_PATH);
        $script = $answers === null ? [] : [$key => $answers];

        return $this->scenario(function (GuzzleClient $client) use ($method, $path, $options): ResponseInterface {
            return $client->request($method, $this->origin->url($path), $options instanceof \Closure ? $options() : $options);
        }, $script);
    }

    /**
     * Any case: $scenario gets each side's Guzzle Client, the origin, and a maker of more
     * handler stacks of the side's kind (for a second Client), and returns the response (or
     * throws), or returns an array of its own facts to compare.
     *
     * @param \Closure(GuzzleClient, EchoOrigin, \Closure(): HandlerStack): (ResponseInterface|array<string, mixed>) $scenario
     * @param array<string, Answer|list<Answer>>                                           $script   EchoOrigin::script() before each side
     * @param array<string, mixed>                                                         $config   Guzzle Client config besides the handler
     */
    public function scenario(\Closure $scenario, array $script = [], array $config = []): ParityResult
    {
        return new ParityResult(
            $this->side('guzzle', static fn(): HandlerStack => HandlerStack::create(), $scenario, $script, $config),
            $this->side('warm', static fn(): HandlerStack => HandlerStack::create(new Handler()), $scenario, $script, $config),
        );
    }

    /**
     * @param \Closure(): HandlerStack                                                                              $stacks
     * @param \Closure(GuzzleClient, EchoOrigin, \Closure(): HandlerStack): (ResponseInterface|array<string, mixed>) $scenario
     * @param array<string, Answer|list<Answer>>                                                                    $script
     * @param array<string, mixed>                                                                                  $config
     */
    private function side(string $name, \Closure $stacks, \Closure $scenario, array $script, array $config): Side
    {
        $this->origin->script($script);
        $mark = $this->origin->mark();
        $client = new GuzzleClient(['handler' => $stacks()] + $config);
        $started = microtime(true);
        try {
            $outcome = $scenario($client, $this->origin, $stacks);
            $seen = \is_array($outcome) ? Seen::facts($outcome) : Seen::of($outcome, $this->origin->port());
        } catch (\Throwable $e) {
            $seen = Seen::of($e, $this->origin->port());
        }
        $seconds = microtime(true) - $started;

        return new Side($name, $this->origin->received($mark), $seen, $this->origin->port(), $seconds);
    }
}
