<?php

declare(strict_types=1);

namespace WarmHttp\Internal;

/**
 * The User-Agent a request without one is sent with: "WarmHttp/VERSION". Many APIs (GitHub's
 * among them) refuse requests that carry none. The request's own User-Agent header, or one in
 * the Client's `headers` option, replaces it.
 *
 * @internal
 */
final class UserAgent
{
    /**
     * The package's version, in one place (bin/warmhttp should report it too); a release bumps it.
     * Not read from Composer\InstalledVersions: its first call in a process loads the installed
     * packages list, 135-386 µs measured on the CLI, paid again by every PHP-FPM request.
     */
    public const VERSION = '0.1.0';

    /** Also a valid HTTP field line for curl's CURLOPT_HTTPHEADER. */
    public const HEADER_LINE = 'User-Agent: WarmHttp/' . self::VERSION;
}
