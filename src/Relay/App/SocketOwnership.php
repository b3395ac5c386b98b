<?php

declare(strict_types=1);

namespace WarmHttp\Relay\App;

/**
 * Whether a unix socket path may be trusted as the relay. In a directory any user may write
 * (/tmp), a user can take the path while the relay is down and answer 202 to everything, so
 * there the socket must belong to this user or root. A directory only its owner may write
 * (/run/warmhttp) is the operator's choice: a socket in it may belong to the relay's own user.
 * A world-writable directory without the sticky bit is refused: anyone could swap the socket.
 *
 * @internal
 */
final class SocketOwnership
{
    private const S_IFMT = 0170000;

    private const S_IFSOCK = 0140000;

    /** @var array<string, true> paths found trustworthy by this process */
    private static array $trusted = [];

    /** @throws RelayUnreachable naming what is wrong and what to do */
    public static function verify(string $path): void
    {
        if (isset(self::$trusted[$path])) {
            return;
        }
        clearstatcache(true, $path);
        $socket = @lstat($path);
        $dir = @stat(\dirname($path));
        if ($socket === false || $dir === false) {
            throw new RelayUnreachable(\sprintf('the relay socket %s is gone', $path));
        }
        $problem = self::problem($socket, $dir);
        if ($problem !== null) {
            throw new RelayUnreachable(\sprintf('refusing the relay socket %s: %s', $path, $problem));
        }
        self::$trusted[$path] = true;
    }

    /**
     * @param array<int|string, int> $socket lstat() of the socket
     * @param array<int|string, int> $dir    stat() of its directory
     */
    private static function problem(array $socket, array $dir): ?string
    {
        $me = ProcessUser::id();
        if (($socket['mode'] & self::S_IFMT) !== self::S_IFSOCK) {
            return 'it is not a socket (a symlink or a file); start the relay with --socket pointing there';
        }
        $worldWritable = ($dir['mode'] & 0002) !== 0;
        $sticky = ($dir['mode'] & 01000) !== 0;
        if ($worldWritable && !$sticky) {
            return \sprintf('its directory (mode %o) may be written by any user and has no sticky bit, so anyone could replace the socket. Put the socket in a directory only the relay\'s user may write, e.g. /run/warmhttp', $dir['mode'] & 07777);
        }
        $sharedDir = $worldWritable || ($dir['mode'] & 0020) !== 0 || !\in_array($dir['uid'], [$me, 0, $socket['uid']], true);
        if ($sharedDir && !\in_array($socket['uid'], [$me, 0], true)) {
            return \sprintf(
                'it belongs to uid %d, neither this user (uid %d) nor root, in a directory other users may write: another user may have taken the path while the relay was down. Stop what listens there, and put the relay\'s socket in a directory only its user may write (e.g. /run/warmhttp)',
                $socket['uid'],
                $me,
            );
        }

        return null;
    }
}
