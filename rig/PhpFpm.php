<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

use Symfony\Component\Process\ExecutableFinder;
use Symfony\Component\Process\Process;

/**
 * Real PHP-FPM (static pool) behind a private nginx (fastcgi_pass over a unix socket), serving
 * the PHP scripts of one directory on an ephemeral loopback port. Workers keep their
 * environment (clear_env = no) so a test can hand them settings.
 *
 * @internal test/bench tooling
 */
final class PhpFpm
{
    private ?Process $fpm;
    private ?Process $nginx;

    private function __construct(private readonly TempDir $dir, Process $fpm, Process $nginx, private readonly int $port)
    {
        $this->fpm = $fpm;
        $this->nginx = $nginx;
    }

    public function __destruct()
    {
        $this->stop();
    }

    /** @param array<string, string> $env given to every worker */
    public static function start(string $docroot, int $workers = 4, array $env = []): self
    {
        $dir = TempDir::create('fpm');
        try {
            $root = \function_exists('posix_geteuid') && posix_geteuid() === 0;
            file_put_contents($dir->path('fpm.conf'), self::fpmConfig($dir, $workers, $root));
            $fpm = new Process(array_merge([self::binary('php-fpm8.2', 'php-fpm')], $root ? ['-R'] : [], ['-F', '-y', $dir->path('fpm.conf'), '-p', $dir->path()]), null, $env);
            $fpm->setTimeout(null);
            $fpm->start();
            self::awaitSocket($fpm, $dir->path('fpm.sock'));
            $port = FreePort::pick();
            mkdir($dir->path('tmp'));
            file_put_contents($dir->path('nginx.conf'), self::nginxConfig($dir, $docroot, $port, $root));
            $nginx = new Process([self::binary('nginx', 'nginx'), '-p', $dir->path(), '-e', $dir->path('nginx-error.log'), '-c', $dir->path('nginx.conf')]);
            $nginx->setTimeout(null);
            $nginx->start();
            PortProbe::waitFor($nginx, [$port], 'nginx (fastcgi)');

            return new self($dir, $fpm, $nginx, $port);
        } catch (\Throwable $e) {
            @unlink($dir->path('fpm.sock'));
            $dir->remove();

            throw $e;
        }
    }

    public function url(string $path): string
    {
        return \sprintf('http://127.0.0.1:%d/%s', $this->port, ltrim($path, '/'));
    }

    public function port(): int
    {
        return $this->port;
    }

    public function errorLog(): string
    {
        return (string) @file_get_contents($this->dir->path('fpm.log')) . (string) @file_get_contents($this->dir->path('nginx-error.log'));
    }

    public function stop(): void
    {
        $this->nginx?->stop(3, \SIGTERM);
        $this->fpm?->stop(3, \SIGQUIT);
        if ($this->fpm !== null) {
            @unlink($this->dir->path('fpm.sock')); // TempDir::remove() takes a socket for a directory
            $this->dir->remove();
        }
        $this->nginx = null;
        $this->fpm = null;
    }

    private static function awaitSocket(Process $fpm, string $socket): void
    {
        $deadline = microtime(true) + 10.0;
        while (!file_exists($socket)) {
            if (!$fpm->isRunning() || microtime(true) > $deadline) {
                throw new RigException(\sprintf('php-fpm did not create %s: %s %s', $socket, $fpm->getErrorOutput(), $fpm->getOutput()));
            }
            usleep(10_000);
        }
    }

    private static function binary(string $name, string $fallback): string
    {
        $finder = new ExecutableFinder();
        $binary = $finder->find($name, null, ['/usr/sbin', '/usr/local/sbin']) ?? $finder->find($fallback, null, ['/usr/sbin', '/usr/local/sbin']);
        if ($binary === null) {
            throw new RigException(\sprintf('The FPM rig needs %s: apt-get install php8.2-fpm nginx', $name));
        }

        return $binary;
    }

    private static function fpmConfig(TempDir $dir, int $workers, bool $root): string
    {
        $user = $root ? "user = root\ngroup = root\n" : '';

        return <<<CONF
            [global]
            pid = {$dir->path('fpm.pid')}
            error_log = {$dir->path('fpm.log')}
            daemonize = no
            [rig]
            {$user}listen = {$dir->path('fpm.sock')}
            listen.mode = 0666
            pm = static
            pm.max_children = {$workers}
            clear_env = no
            catch_workers_output = yes
            php_admin_value[error_log] = {$dir->path('fpm.log')}
            CONF;
    }

    private static function nginxConfig(TempDir $dir, string $docroot, int $port, bool $root): string
    {
        $temp = implode(' ', array_map(
            static fn(string $kind): string => "{$kind}_temp_path {$dir->path('tmp')}/{$kind};",
            ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'],
        ));
        $user = $root ? 'user root;' : '';

        return <<<CONF
            {$user}
            daemon off;
            worker_processes 1;
            pid {$dir->path('nginx.pid')};
            events { worker_connections 4096; }
            http {
                {$temp}
                access_log off;
                server {
                    listen 127.0.0.1:{$port};
                    root {$docroot};
                    location ~ \\.php$ {
                        include /etc/nginx/fastcgi_params;
                        fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
                        fastcgi_pass unix:{$dir->path('fpm.sock')};
                    }
                }
            }
            CONF;
    }
}
