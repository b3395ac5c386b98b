<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Console;

use Symfony\Component\Console\Attribute\AsCommand;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use WarmHttp\Relay\Assembly;
use WarmHttp\Relay\Front\FrontLimits;
use WarmHttp\Relay\Front\FrontProcess;
use WarmHttp\Relay\Front\ListeningSockets;
use WarmHttp\Relay\JsonLogger;
use WarmHttp\Relay\RelayConfig;
use WarmHttp\Relay\Storage\Redis\RedisAddress;
use WarmHttp\Relay\Storage\Redis\RedisConnection;
use WarmHttp\Relay\Worker\RetryPolicy;

#[AsCommand(name: 'relay', description: 'Run the relay daemon: durable fire-and-forget delivery and warm upstream connections for PHP-FPM')]
final class RelayCommand extends Command
{
    /** --max-connections: FD_SETSIZE (1024) less what the front holds besides its callers. */
    private const MAX_CONNECTIONS_CEILING = 900;

    /** --spool-reserve: the worker's take-in floor (1 MiB) plus a quarter for SQLite's own pages. */
    private const MIN_SPOOL_RESERVE = 1310720;

    /** --ack-timeout: below the application's 2 s wait for its 202, with room for a busy front. */
    private const MAX_ACK_TIMEOUT = 1.5;

    protected function configure(): void
    {
        $this
            ->addOption('socket', null, InputOption::VALUE_REQUIRED, RelayLocation::socketHelp('Unix socket to listen on (mode 0660); "none" for TCP only'))
            ->addOption('tcp', null, InputOption::VALUE_REQUIRED, 'Also listen on a loopback TCP address, e.g. 127.0.0.1:8787 (needs a token)')
            ->addOption('token-file', null, InputOption::VALUE_REQUIRED, 'File holding the token TCP callers must send as X-WarmHttp-Token, mode 0600, at least 32 characters (default: $WARMHTTP_RELAY_TOKEN)')
            ->addOption('token', null, InputOption::VALUE_REQUIRED, 'Deprecated: shows the token to every user in ps; use --token-file or $WARMHTTP_RELAY_TOKEN')
            ->addOption('spool', null, InputOption::VALUE_REQUIRED, RelayLocation::spoolHelp('The SQLite spool file, or redis://[[user]:password@]host[:port][/db][?prefix=...] (rediss:// for TLS; redis+sentinel://sentinel1,sentinel2/service[/db]) for a spool shared by a fleet of relays'))
            ->addOption('journal', null, InputOption::VALUE_REQUIRED, \sprintf('With a redis:// spool: base path of this relay\'s local journal, lock and metrics (default %s)', RelayConfig::DEFAULT_JOURNAL))
            ->addOption('claim-after', null, InputOption::VALUE_REQUIRED, 'With a redis:// spool: a request another relay took and left untouched this long is taken over (that relay died), seconds', '60')
            ->addOption('ack', null, InputOption::VALUE_REQUIRED, 'With a redis:// spool: when a dispatch gets its 202. journal: once in the local journal (a host lost with its disk loses what it had not forwarded yet); redis: once the forwarder put it into Redis (X-WarmHttp-Durability says which it got)', 'journal')
            ->addOption('ack-timeout', null, InputOption::VALUE_REQUIRED, 'With --ack=redis: answer 202 from the local journal after this many seconds without Redis (X-WarmHttp-Durability: journal), at most 1.5', '1')
            ->addOption('spool-sync', null, InputOption::VALUE_REQUIRED, 'normal: a 202 survives the relay being killed or restarted (the journal write is in the page cache); full: it survives power loss too (one fdatasync per group of requests)', 'normal')
            ->addOption('spool-reserve', null, InputOption::VALUE_REQUIRED, 'Refuse new requests (507) when less than this many bytes are free on the spool disk', '16777216')
            ->addOption('cafile', null, InputOption::VALUE_REQUIRED, 'CA bundle for upstream TLS (as the client option)')
            ->addOption('allow-private-networks', null, InputOption::VALUE_NONE, 'Allow loopback, private, link-local, CGNAT and metadata destinations')
            ->addOption('guard-sync', null, InputOption::VALUE_NONE, 'Apply the destination guard to sync requests too (by default only to async ones, and to sync ones whose client sets relay_sync_guard)')
            ->addOption('allow-host', null, InputOption::VALUE_REQUIRED | InputOption::VALUE_IS_ARRAY, 'Allow this host whatever it resolves to (repeatable; *.example.com for subdomains)')
            ->addOption('max-body', null, InputOption::VALUE_REQUIRED, 'Largest request body accepted, bytes', '10485760')
            ->addOption('retry-base', null, InputOption::VALUE_REQUIRED, 'First retry delay ceiling, seconds (doubles per attempt, full jitter)', '1')
            ->addOption('retry-cap', null, InputOption::VALUE_REQUIRED, 'Longest retry delay, seconds', '300')
            ->addOption('max-age', null, InputOption::VALUE_REQUIRED, 'Give up (dead-letter) after this many seconds', '86400')
            ->addOption('max-attempts', null, InputOption::VALUE_REQUIRED, 'Give up after this many attempts (0: only --max-age)', '0')
            ->addOption('max-in-flight', null, InputOption::VALUE_REQUIRED, 'Deliveries in flight at once', '512')
            ->addOption('max-per-host', null, InputOption::VALUE_REQUIRED, 'Deliveries in flight per destination (scheme, host, port)', '128')
            ->addOption('timeout', null, InputOption::VALUE_REQUIRED, 'Upstream request timeout, seconds', '30')
            ->addOption('max-connections', null, InputOption::VALUE_REQUIRED, \sprintf('Callers connected at once, at most %d (TCP callers at most half); past it the longest-idle caller gives its place, else 503', self::MAX_CONNECTIONS_CEILING), (string) FrontLimits::MAX_CONNECTIONS)
            ->addOption('idle-timeout', null, InputOption::VALUE_REQUIRED, 'Close a caller connection idle this long, seconds', (string) FrontLimits::IDLE_SECONDS)
            ->addOption('head-timeout', null, InputOption::VALUE_REQUIRED, 'A request head must arrive whole within this many seconds of its first byte (else 408)', (string) FrontLimits::HEAD_SECONDS)
            ->addOption('input-budget', null, InputOption::VALUE_REQUIRED, 'Bytes all callers together may have buffered in the front before large ones wait', (string) FrontLimits::INPUT_BUDGET_BYTES)
            ->addOption('drain-timeout', null, InputOption::VALUE_REQUIRED, 'On SIGTERM, wait this long for in-flight deliveries', '10')
            ->addOption('role', null, InputOption::VALUE_REQUIRED, 'Internal: "delivery" runs the delivery worker the relay starts for itself', 'front')
            ->addOption('front-pid', null, InputOption::VALUE_REQUIRED, 'Internal: the front process a delivery worker belongs to; it exits when that one is gone');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        // Before anything is opened: every file the relay creates (journal, spool, -wal, -shm,
        // metrics, locks) is then 0600, its directories 0700. The socket sets its own 0660.
        umask(StateFiles::UMASK);
        $logger = new JsonLogger();
        if (!\function_exists('pcntl_async_signals') || !\function_exists('posix_getppid')) {
            $logger->critical('Relay cannot start: it needs the pcntl and posix extensions (Debian: php8.2-cli has both).');

            return self::FAILURE;
        }
        try {
            $redis = self::redis($input);
            if ($redis?->password !== null) {
                self::hidePassword($input, $logger);
            }
            $location = RelayLocation::resolve(self::string($input, 'socket'), $redis === null ? self::string($input, 'spool') : (self::string($input, 'journal') ?? RelayConfig::DEFAULT_JOURNAL));
            $front = self::role($input) === 'front';
            $config = $this->config($input, $location, $front ? $logger : null, $redis);
            $process = $front ? $this->front($input, $config, $logger, $location) : Assembly::worker($config, $logger, (int) self::string($input, 'front-pid'));
        } catch (\InvalidArgumentException $e) {
            $logger->critical('Relay cannot start', ['error' => $e->getMessage()]);

            return self::INVALID;
        } catch (\RuntimeException $e) {
            $logger->critical('Relay cannot start', ['error' => $e->getMessage()]);

            return self::FAILURE;
        }
        if ($front) {
            $location->announce();
        }
        try {
            $process->run();
        } finally {
            if ($front) {
                $location->withdraw();
            }
        }

        return self::SUCCESS;
    }

    private function front(InputInterface $input, RelayConfig $config, JsonLogger $logger, RelayLocation $location): FrontProcess
    {
        // The same directories the journal, spool and socket would create, made here first so
        // a default path this user may not write fails with what to do about it. The socket's
        // is 0750: the web server's group must reach the socket inside.
        self::directoryFor($location->spool, 'spool', RelayLocation::SPOOL_ENV, 'StateDirectory=warmhttp', 0o077);
        if ($location->socket !== null) {
            self::directoryFor($location->socket, 'socket', RelayLocation::SOCKET_ENV, 'RuntimeDirectory=warmhttp', 0o027);
        }
        $tightened = StateFiles::tighten($location->spool);
        if ($tightened !== []) {
            $logger->warning('Files of the relay were readable by other users; made them private (chmod go-rwx)', ['paths' => $tightened]);
        }
        self::checkBacklog($logger);
        /** @var list<string> $argv */
        $argv = $_SERVER['argv'] ?? [];

        return Assembly::front($config, $logger, [$argv[0] ?? 'bin/warmhttp', 'relay', ...$this->workerOptions($input, $location, $config->redis !== null)]);
    }

    /**
     * The Redis address from --spool or $WARMHTTP_RELAY_SPOOL; null for a SQLite spool. The
     * worker gets it through its environment, never on its command line (it may hold a password).
     *
     * @throws \InvalidArgumentException
     */
    private static function redis(InputInterface $input): ?RedisAddress
    {
        $spool = self::string($input, 'spool') ?? (getenv(RelayLocation::SPOOL_ENV) ?: null);
        if (!RedisAddress::isRedis($spool)) {
            return null;
        }
        \assert(\is_string($spool));
        $address = RedisAddress::parse($spool);
        if (!RedisConnection::available()) {
            throw new \InvalidArgumentException('--spool=redis://... needs the PHP extension redis (phpredis; Debian: apt install php8.2-redis).');
        }
        putenv(RelayLocation::SPOOL_ENV . '=' . $spool);

        return $address;
    }

    /**
     * A password in --spool on the command line shows in every user's `ps` (/proc/PID/cmdline):
     * the process title is rewritten without it at once (cli_set_process_title overwrites the
     * argv memory /proc reads), and the operator is told to use the environment, since it showed
     * until now and stays in shell history and service files.
     */
    private static function hidePassword(InputInterface $input, JsonLogger $logger): void
    {
        if (self::string($input, 'spool') === null) {
            return; // from $WARMHTTP_RELAY_SPOOL: never on the command line
        }
        /** @var list<string> $argv */
        $argv = $_SERVER['argv'] ?? [];
        @cli_set_process_title(implode(' ', ['php', ...array_map(static fn(string $arg): string => (string) preg_replace('~://.*@~s', '://***@', $arg), $argv)]));
        $logger->warning(\sprintf('The Redis password was on the command line (--spool): hidden from ps now, but it showed until the relay started and stays in shell history; pass the address in $%s instead.', RelayLocation::SPOOL_ENV));
    }

    /**
     * The delivery worker's options: the front's own, as --name=value, without the ones only
     * the front uses (WorkerHandle drops those too); the paths as resolved, so the worker uses
     * the same ones whatever its environment.
     *
     * @return list<string>
     */
    private function workerOptions(InputInterface $input, RelayLocation $location, bool $redis): array
    {
        $options = ['--socket=' . ($location->socket ?? 'none'), ($redis ? '--journal=' : '--spool=') . $location->spool];
        foreach ($this->getNativeDefinition()->getOptions() as $name => $option) {
            $value = $input->getOption($name);
            if (\in_array($name, ['socket', 'spool', 'journal', 'token', 'token-file', 'tcp', 'role', 'front-pid'], true) || $value === $option->getDefault()) {
                continue;
            }
            foreach (\is_array($value) ? $value : [$value] as $one) {
                $options[] = $one === true ? '--' . $name : '--' . $name . '=' . (\is_scalar($one) ? (string) $one : '');
            }
        }

        return $options;
    }

    /** Linux silently caps a listen backlog at net.core.somaxconn. */
    private static function checkBacklog(JsonLogger $logger): void
    {
        $max = @file_get_contents('/proc/sys/net/core/somaxconn');
        $warning = ListeningSockets::backlogWarning($max === false ? null : (int) $max);
        if ($warning !== null) {
            $logger->warning($warning);
        }
    }

    private static function directoryFor(string $path, string $option, string $variable, string $systemd, int $umask): void
    {
        $dir = \dirname($path);
        $previous = umask($umask);
        $usable = is_dir($dir) ? is_writable($dir) : @mkdir($dir, 0o777, true);
        umask($previous);
        if ($usable) {
            return;
        }
        $why = is_dir($dir) ? 'it is not writable' : 'it cannot be created: ' . (error_get_last()['message'] ?? 'unknown error');
        throw new \RuntimeException(\sprintf(
            'The relay\'s %s directory %s is not usable by user "%s" (%s). Run the relay as a user that may write there (systemd: User= with %s), or pass --%s=PATH (or set $%s) to a writable place; give relay:status and the other relay:* commands the same.',
            $option,
            $dir,
            RelayLocation::user(),
            $why,
            $systemd,
            $option,
            $variable,
        ));
    }

    private static function role(InputInterface $input): string
    {
        $role = self::string($input, 'role');
        if ($role !== 'front' && $role !== 'delivery') {
            throw new \InvalidArgumentException(\sprintf('--role must be "front" (the default) or "delivery" (started by the relay itself), got "%s".', $role));
        }

        return $role;
    }

    private function config(InputInterface $input, RelayLocation $location, ?JsonLogger $logger, ?RedisAddress $redis): RelayConfig
    {
        $tcp = self::string($input, 'tcp');
        if ($tcp !== null) {
            ListeningSockets::loopback($tcp); // a wrong address first: it matters more than the token
        }
        $token = self::token($input, $logger);
        $sync = self::string($input, 'spool-sync');
        if (!\in_array($sync, ['full', 'normal'], true)) {
            throw new \InvalidArgumentException(\sprintf('--spool-sync must be "full" or "normal", got "%s".', $sync));
        }
        /** @var list<string> $hosts */
        $hosts = $input->getOption('allow-host');

        return new RelayConfig(
            socketPath: $location->socket,
            spoolPath: $location->spool,
            tcpAddress: $tcp,
            token: $token,
            cafile: self::string($input, 'cafile'),
            allowPrivateNetworks: (bool) $input->getOption('allow-private-networks'),
            allowedHosts: $hosts,
            maxBodyBytes: self::number($input, 'max-body', 1),
            retry: self::retryPolicy($input),
            maxInFlight: self::number($input, 'max-in-flight', 1),
            maxPerHost: self::number($input, 'max-per-host', 1),
            timeout: self::seconds($input, 'timeout'),
            drainTimeout: self::seconds($input, 'drain-timeout'),
            fsync: $sync === 'full',
            spoolReserveBytes: self::spoolReserve($input),
            limits: self::limits($input),
            guardSync: (bool) $input->getOption('guard-sync'),
            redis: $redis,
            claimAfter: self::seconds($input, 'claim-after', positive: true),
            ackRedis: self::ackRedis($input, $redis),
            ackTimeout: self::ackTimeout($input),
        );
    }

    /**
     * The application waits 2 s for its 202 (App\RelaySocket), then falls back and sends the
     * request itself: a relay still holding the 202 by then would deliver it a second time.
     */
    private static function ackTimeout(InputInterface $input): float
    {
        $seconds = self::seconds($input, 'ack-timeout', positive: true);
        if ($seconds > self::MAX_ACK_TIMEOUT) {
            throw new \InvalidArgumentException(\sprintf('--ack-timeout must be at most %.1f s, got %s: the application waits 2 s for its 202, then sends the request itself.', self::MAX_ACK_TIMEOUT, $seconds));
        }

        return $seconds;
    }

    /** --ack=redis waits for a Redis spool's forwarder: it has no meaning with SQLite. */
    private static function ackRedis(InputInterface $input, ?RedisAddress $redis): bool
    {
        $ack = self::string($input, 'ack');
        if ($ack !== 'journal' && $ack !== 'redis') {
            throw new \InvalidArgumentException(\sprintf('--ack must be "journal" or "redis", got "%s".', $ack));
        }
        if ($ack === 'redis' && $redis === null) {
            throw new \InvalidArgumentException('--ack=redis needs a redis:// spool (--spool=redis://...): with a SQLite spool the 202 already follows the local journal, and there is no Redis to wait for.');
        }

        return $ack === 'redis';
    }

    /**
     * The delivery worker takes journal records into the spool only while 1 MiB plus its batch
     * is free (Worker: a full disk must not strand acknowledged requests): a reserve below that
     * lets the front acknowledge what the worker can never take in. 0 turns the check off.
     */
    private static function spoolReserve(InputInterface $input): int
    {
        $reserve = self::number($input, 'spool-reserve', 0);
        if ($reserve > 0 && $reserve < self::MIN_SPOOL_RESERVE) {
            throw new \InvalidArgumentException(\sprintf('--spool-reserve must be 0 (no check) or at least %d bytes, got %d: the delivery worker needs that much free to move acknowledged requests from the journal into the spool.', self::MIN_SPOOL_RESERVE, $reserve));
        }

        return $reserve;
    }

    /** @throws \InvalidArgumentException naming the option */
    private static function limits(InputInterface $input): FrontLimits
    {
        $connections = self::number($input, 'max-connections', 1);
        if ($connections > self::MAX_CONNECTIONS_CEILING) {
            throw new \InvalidArgumentException(\sprintf('--max-connections must be at most %d, got %d: the front waits with stream_select(), which handles descriptors below 1024 only, and keeps some for its listeners, files and upstream sockets.', self::MAX_CONNECTIONS_CEILING, $connections));
        }

        return new FrontLimits(
            $connections,
            self::seconds($input, 'idle-timeout', positive: true),
            self::seconds($input, 'head-timeout', positive: true),
            self::number($input, 'input-budget', 1048576),
        );
    }

    /**
     * A zero delay or age is refused rather than taken literally: --retry-base=0 or
     * --retry-cap=0 would retry a failing origin in a tight loop, and --max-age=0 would silently
     * never retry (unlike --max-attempts=0, which means no limit).
     */
    private static function retryPolicy(InputInterface $input): RetryPolicy
    {
        return new RetryPolicy(
            self::seconds($input, 'retry-base', positive: true),
            self::seconds($input, 'retry-cap', positive: true),
            self::seconds($input, 'max-age', positive: true),
            self::number($input, 'max-attempts', 0),
        );
    }

    /** @param JsonLogger|null $logger the front's; null in the worker, which never sees the token */
    private static function token(InputInterface $input, ?JsonLogger $logger): ?string
    {
        $token = RelayToken::resolve(self::string($input, 'token'), self::string($input, 'token-file'), getenv());
        if ($token->onCommandLine && $logger !== null) {
            $logger->warning(RelayToken::deprecation());
            self::hideToken();
        }

        return $token->value;
    }

    /** `ps` shows the process title: from now on without the token (it showed until here). */
    private static function hideToken(): void
    {
        /** @var list<string> $argv */
        $argv = $_SERVER['argv'] ?? [];
        $shown = [\PHP_BINARY];
        foreach ($argv as $i => $argument) {
            $shown[] = str_starts_with($argument, '--token=') || ($argv[$i - 1] ?? '') === '--token' ? '--token=[hidden]' : $argument;
        }
        @cli_set_process_title(implode(' ', $shown));
    }

    private static function string(InputInterface $input, string $name): ?string
    {
        $value = $input->getOption($name);

        return \is_string($value) && $value !== '' ? $value : null;
    }

    private static function number(InputInterface $input, string $name, int $min): int
    {
        $value = self::string($input, $name) ?? '';
        if (!ctype_digit($value) || (int) $value < $min) {
            throw new \InvalidArgumentException(\sprintf('--%s must be a whole number >= %d, got "%s".', $name, $min, $value));
        }

        return (int) $value;
    }

    private static function seconds(InputInterface $input, string $name, bool $positive = false): float
    {
        $value = self::string($input, $name) ?? '';
        // is_finite: "1e999" is numeric but INF
        if (!is_numeric($value) || !is_finite((float) $value) || (float) $value < 0 || ($positive && (float) $value === 0.0)) {
            throw new \InvalidArgumentException(\sprintf('--%s must be a number of seconds %s, got "%s".', $name, $positive ? '> 0' : '>= 0', $value));
        }

        return (float) $value;
    }
}
