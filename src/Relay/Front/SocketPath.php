<?php

declare(strict_types=1);

namespace WarmHttp\Relay\Front;

/**
 * The unix socket's path, guarded: callers trust whatever answers there with their requests
 * (and their Authorization headers), so no other local user may put a socket of theirs there.
 * Before binding: every directory on the way must be owned by root or the relay's user and
 * writable by no one else (unless sticky, as /tmp), and what already sits at the path is removed
 * only if it is a dead socket of ours. After binding: the path must be our socket (owner,
 * mode), and its inode is kept so stop removes it only while it is still ours.
 *
 * @internal
 */
final readonly class SocketPath
{
    private const TYPE = 0o170000;
    private const SOCKET = 0o140000;
    private const DIRECTORY = 0o040000;
    private const LINK = 0o120000;
    private const STICKY = 0o1000;

    private function __construct(public string $path, private int $device, private int $inode) {}

    /** @throws \RuntimeException naming the path and what to do */
    public static function prepare(string $path): void
    {
        self::checkChain(\dirname($path));
        $real = realpath(\dirname($path));
        if ($real !== false && $real !== \dirname($path)) {
            self::checkChain($real);
        }
        self::clearStale($path);
    }

    /**
     * Called right after bind: the path must now be a socket of ours, mode 0660 (a default ACL
     * on the directory can widen what the umask gave; safe to chmod: the path is ours, in a
     * directory no one else may write).
     *
     * @throws \RuntimeException
     */
    public static function claim(string $path): self
    {
        $stat = self::ourSocket($path);
        if (($stat['mode'] & 0o777) !== 0o660) {
            @chmod($path, 0o660);
            $stat = self::ourSocket($path);
        }
        if (($stat['mode'] & 0o777) !== 0o660) {
            throw new \RuntimeException(\sprintf('The socket %s has mode %04o and cannot be made 0660: check the ACLs of %s (getfacl).', $path, $stat['mode'] & 0o7777, \dirname($path)));
        }

        return new self($path, $stat['dev'], $stat['ino']);
    }

    /** On stop: removes the socket file unless something else took the path meanwhile. */
    public function remove(): void
    {
        $stat = @lstat($this->path);
        if ($stat !== false && $stat['dev'] === $this->device && $stat['ino'] === $this->inode) {
            @unlink($this->path);
        }
    }

    /**
     * @return array{dev: int, ino: int, mode: int}
     *
     * @throws \RuntimeException when the path is not a socket of the relay's user
     */
    private static function ourSocket(string $path): array
    {
        $stat = @lstat($path);
        if ($stat === false || ($stat['mode'] & self::TYPE) !== self::SOCKET || $stat['uid'] !== self::euid()) {
            throw new \RuntimeException(\sprintf(
                'After binding %s, the path is not this relay\'s socket (%s): something replaced it. Check who else writes in %s.',
                $path,
                $stat === false ? 'it is gone' : \sprintf('mode %06o, owner uid %d', $stat['mode'], $stat['uid']),
                \dirname($path),
            ));
        }

        return $stat;
    }

    /** Every existing component from / down to $dir, as lstat sees it (a symlink is checked, not followed). */
    private static function checkChain(string $dir): void
    {
        $names = array_values(array_filter(explode('/', $dir), static fn(string $name): bool => $name !== '' && $name !== '.'));
        $paths = ['/'];
        foreach (array_keys($names) as $i) {
            $paths[] = '/' . implode('/', \array_slice($names, 0, $i + 1));
        }
        foreach ($paths as $path) {
            $stat = @lstat($path);
            if ($stat === false) {
                return; // not there yet: the relay creates it, as its own user
            }
            self::checkComponent($path, $stat);
        }
    }

    /** @param array{uid: int, mode: int} $stat */
    private static function checkComponent(string $path, array $stat): void
    {
        $owner = $stat['uid'];
        if ($owner !== 0 && $owner !== self::euid()) {
            throw new \RuntimeException(\sprintf(
                'The relay\'s socket would be under %s, owned by user "%s": that user could replace the socket and answer the relay\'s callers. Put the socket in a directory owned by root or by the relay\'s user "%s" (systemd: RuntimeDirectory=warmhttp gives /run/warmhttp), with --socket=PATH.',
                $path,
                self::userName($owner),
                self::userName(self::euid()),
            ));
        }
        $mode = $stat['mode'];
        if (($mode & self::TYPE) === self::DIRECTORY && ($mode & 0o022) !== 0 && ($mode & self::STICKY) === 0) {
            throw new \RuntimeException(\sprintf(
                'The relay\'s socket would be under %s (mode %04o), which other users may write: they could replace the socket and answer the relay\'s callers. Run chmod go-w %s (or chmod +t for a shared directory), or put the socket in a directory only the relay\'s user can write (systemd: RuntimeDirectory=warmhttp), with --socket=PATH.',
                $path,
                $mode & 0o7777,
                $path,
            ));
        }
    }

    private static function clearStale(string $path): void
    {
        $stat = @lstat($path);
        if ($stat === false) {
            return;
        }
        if (($stat['mode'] & self::TYPE) !== self::SOCKET) {
            throw new \RuntimeException(\sprintf(
                'Cannot listen on %s: %s is there, not a socket. The relay removes only a dead socket it left itself; move that file away if it is not needed, or pass another --socket=PATH.',
                $path,
                ($stat['mode'] & self::TYPE) === self::LINK ? 'a symbolic link' : (($stat['mode'] & self::TYPE) === self::DIRECTORY ? 'a directory' : 'a file'),
            ));
        }
        if ($stat['uid'] !== self::euid()) {
            throw new \RuntimeException(\sprintf(
                'Cannot listen on %s: a socket owned by user "%s" is there, not one of the relay\'s user "%s". The relay does not remove it: if it is stale, remove it as that user; if someone else put it there, use a directory only the relay\'s user can write (--socket=PATH).',
                $path,
                self::userName($stat['uid']),
                self::userName(self::euid()),
            ));
        }
        $probe = @stream_socket_client('unix://' . $path, $errno, $errstr, 0.5);
        if ($probe !== false) {
            fclose($probe);
            throw new \RuntimeException(\sprintf('Another relay already listens on %s.', $path));
        }
        @unlink($path); // a socket of ours nobody listens on: left behind by a relay that was killed
    }

    private static function euid(): int
    {
        return posix_geteuid();
    }

    private static function userName(int $uid): string
    {
        $user = posix_getpwuid($uid);

        return \is_array($user) ? $user['name'] : '#' . $uid;
    }
}
