<?php

declare(strict_types=1);

namespace WarmHttp\Bench\Relay;

use Symfony\Component\Process\ExecutableFinder;
use WarmHttp\Rig\Rig;

/**
 * What each relay row needs besides the rig, as the reason to skip it when missing.
 *
 * @internal benchmark tooling
 */
final class Requirements
{
    public static function relay(): ?string
    {
        return \extension_loaded('pdo_sqlite') ? null : 'the relay\'s spool needs pdo_sqlite: apt-get install php8.2-sqlite3';
    }

    public static function curlCli(): ?string
    {
        return self::binary('curl') ? null : 'needs the curl command line tool: apt-get install curl';
    }

    public static function fpm(): ?string
    {
        if (!self::binary('php-fpm8.2') && !self::binary('php-fpm')) {
            return 'needs php-fpm: apt-get install php8.2-fpm';
        }

        return self::binary('nginx') ? null : 'needs nginx in front of php-fpm: apt-get install nginx';
    }

    public static function wrk(): ?string
    {
        return self::binary('wrk') ? null : 'needs the wrk load generator: apt-get install wrk';
    }

    /** @return non-empty-string the rig's CA bundle, for curl options that refuse '' */
    public static function caFile(Rig $rig): string
    {
        $file = $rig->caFile();
        if ($file === '') {
            throw new \RuntimeException('The rig has no CA file.');
        }

        return $file;
    }

    private static function binary(string $name): bool
    {
        return (new ExecutableFinder())->find($name, null, ['/usr/sbin', '/usr/local/sbin']) !== null;
    }
}
