<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Output;

/**
 * The chart's first lines: the network the times were taken on (the RTT, what a new
 * connection costs), the machine, and which run it was, from a report's meta.
 *
 * @internal bench tooling
 */
final class ChartMeta
{
    /**
     * @param array<string, mixed> $meta
     *
     * @return list<string>
     */
    public static function lines(array $meta): array
    {
        $lines = [self::network($meta)];
        $machine = self::string($meta, 'machine');
        if ($machine !== '') {
            $lines[] = 'Machine: ' . $machine . self::load($meta);
        }
        $run = array_filter([self::when($meta), self::string($meta, 'commit') === '' ? '' : 'commit ' . self::string($meta, 'commit'), self::string($meta, 'command')]);
        if ($run !== []) {
            $lines[] = 'Run: ' . implode(' · ', $run);
        }

        return $lines;
    }

    /** @param array<string, mixed> $meta */
    private static function network(array $meta): string
    {
        $network = \is_array($meta['network'] ?? null) ? $meta['network'] : [];
        $rtt = is_numeric($network['rttMs'] ?? null) ? (float) $network['rttMs'] : null;
        $handshake = is_numeric($network['handshakeRtts'] ?? null) ? (int) $network['handshakeRtts'] : null;
        $target = self::string($meta, 'target');
        if ($rtt === null) {
            return 'Network: not recorded';
        }
        $cost = $handshake === null ? '' : \sprintf('; a new connection costs %d RTT more (TCP + TLS)', $handshake);
        if (str_starts_with($target, 'rig')) {
            return \sprintf('Network: %s ms round trip (RTT), added by a latency proxy on loopback in front of nginx (TLS 1.3, HTTP/2)%s. CPU rows: no added latency.', Units::number($rtt), $cost);
        }

        return \sprintf('Network: %s, measured RTT %s ms%s.', $target === '' ? 'unknown target' : $target, Units::number($rtt), $cost);
    }

    /** @param array<string, mixed> $meta */
    private static function load(array $meta): string
    {
        $before = strtok(self::string($meta, 'loadBefore'), ' ');
        $after = strtok(self::string($meta, 'loadAfter'), ' ');

        return \is_string($before) && \is_string($after) ? \sprintf(' · load average %s before, %s after', $before, $after) : '';
    }

    /** @param array<string, mixed> $meta */
    private static function when(array $meta): string
    {
        $date = \DateTimeImmutable::createFromFormat(\DATE_ATOM, self::string($meta, 'date'));

        return $date === false ? '' : $date->setTimezone(new \DateTimeZone('UTC'))->format('Y-m-d H:i') . ' UTC';
    }

    /** @param array<string, mixed> $meta */
    private static function string(array $meta, string $key): string
    {
        return \is_scalar($meta[$key] ?? null) ? (string) $meta[$key] : '';
    }
}
