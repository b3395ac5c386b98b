<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

/**
 * The test rig, started lazily once per PHP process: certificate, nginx, and on request
 * latency proxies and raw origins. Everything stops at shutdown.
 *
 * @internal test/bench tooling
 */
final class Rig
{
    private static ?self $shared = null;

    private ?Certificate $certificate = null;
    private ?Nginx $nginx = null;
    /** @var list<\WeakReference<LatencyProxy>|\WeakReference<RawOrigin>> */
    private array $children = [];

    private function __construct() {}

    public function __destruct()
    {
        $this->stop();
    }

    public static function shared(): self
    {
        if (self::$shared === null) {
            self::$shared = new self();
            register_shutdown_function(static function (): void {
                self::$shared?->stop();
                self::$shared = null;
            });
        }

        return self::$shared;
    }

    public function certificate(): Certificate
    {
        return $this->certificate ??= Certificate::generate();
    }

    public function caFile(): string
    {
        return $this->certificate()->caFile();
    }

    public function nginx(): Nginx
    {
        return $this->nginx ??= Nginx::start($this->certificate());
    }

    /**
     * A new proxy adding $rttMs per round trip (and one RTT for each new connection's TCP
     * handshake unless $simulateHandshake is false) in front of one nginx listener; stopped
     * when dropped (keep it in a variable) or at shutdown.
     *
     * @param string $listener 'h2', 'h1tls' or 'plain'
     */
    public function proxyTo(string $listener, float $rttMs, bool $simulateHandshake = true): LatencyProxy
    {
        $port = $this->nginx()->port($listener);
        $proxy = LatencyProxy::start('127.0.0.1', $port, $rttMs, $listener === 'plain' ? 'http' : 'https', $simulateHandshake);
        $this->children[] = \WeakReference::create($proxy);

        return $proxy;
    }

    /**
     * A new raw origin (fresh counters); stopped when dropped or at shutdown.
     */
    public function rawOrigin(): RawOrigin
    {
        $origin = RawOrigin::start();
        $this->children[] = \WeakReference::create($origin);

        return $origin;
    }

    public function stop(): void
    {
        foreach ($this->children as $child) {
            $child->get()?->stop();
        }
        $this->children = [];
        $this->nginx?->stop();
        $this->nginx = null;
        $this->certificate?->remove();
        $this->certificate = null;
    }
}
