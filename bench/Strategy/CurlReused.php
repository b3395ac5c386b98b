<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Strategy;

use WarmHttp\Bench\Scenario;
use WarmHttp\Bench\Tls;
use WarmHttp\Internal\ContentCodings;
use WarmHttp\Internal\UserAgent;

/**
 * One easy handle for every request: its own connection cache keeps the connection (seeds/000),
 * at the price of options leaking from one request to the next (seeds/002).
 *
 * @internal bench tooling
 */
final class CurlReused implements Scenario
{
    /**
     * @param string|null $acceptEncoding CURLOPT_ACCEPT_ENCODING: ask for these codings and decode them, as WarmHttp does by default
     * @param list<string> $headers        header lines sent with every request
     */
    public function __construct(private readonly ?string $acceptEncoding = null, private readonly array $headers = []) {}

    /**
     * The same request bytes as a default WarmHttp Client's GET: Accept-Encoding: gzip (decoded
     * by libcurl) and its User-Agent line. Each costs libcurl 7.88 instructions over HTTP/2
     * (gzip ~5-7 k, the header line ~4.8 k, callgrind), which a bare handle would not pay.
     */
    public static function sameRequestAsWarmHttp(): self
    {
        return new self(ContentCodings::DEFAULT, [UserAgent::HEADER_LINE]);
    }

    public function name(): string
    {
        return 'curl-reused';
    }

    public function label(): string
    {
        return match (true) {
            $this->acceptEncoding === null => 'curl: one easy handle reused',
            $this->headers === [] => \sprintf('curl: one easy handle reused (Accept-Encoding: %s, as WarmHttp asks)', $this->acceptEncoding),
            default => 'curl: one easy handle reused (the same request bytes as WarmHttp: gzip, User-Agent)',
        };
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function open(Tls $tls): \Closure
    {
        $handle = CurlEasy::create('', $tls);
        if ($this->acceptEncoding !== null) {
            curl_setopt($handle, \CURLOPT_ACCEPT_ENCODING, $this->acceptEncoding);
        }
        if ($this->headers !== []) {
            curl_setopt($handle, \CURLOPT_HTTPHEADER, $this->headers);
        }

        return function (string ...$urls) use ($handle): void {
            foreach ($urls as $url) {
                curl_setopt($handle, \CURLOPT_URL, $url === '' ? '/' : $url);
                curl_exec($handle);
                CurlEasy::check($handle, $this->name(), $url);
            }
        };
    }
}
