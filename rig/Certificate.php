<?php

declare(strict_types=1);

namespace WarmHttp\Rig;

use Symfony\Component\Process\Process;

/**
 * A throw-away CA and a server certificate it signed, for localhost, 127.0.0.1 and ::1, made
 * with the openssl CLI so TLS verification can stay on in every test; on request, client
 * certificates the same CA signed (the rig nginx's mtls listeners trust it).
 *
 * @internal test/bench tooling
 */
final class Certificate
{
    private function __construct(private readonly TempDir $dir) {}

    public static function generate(): self
    {
        $dir = TempDir::create('cert');
        $certificate = new self($dir);
        try {
            $certificate->makeCa();
            $certificate->makeServer();
        } catch (\Throwable $e) {
            $dir->remove();

            throw $e;
        }

        return $certificate;
    }

    public function caFile(): string
    {
        return $this->dir->path('ca.pem');
    }

    public function certFile(): string
    {
        return $this->dir->path('server.pem');
    }

    public function keyFile(): string
    {
        return $this->dir->path('server.key');
    }

    /**
     * A client certificate for CN=$name, made on first use: [certificate PEM, key PEM]; with a
     * passphrase, the key is encrypted with it (AES-256).
     *
     * @return array{string, string}
     */
    public function client(string $name = 'client', ?string $passphrase = null): array
    {
        $base = $this->dir->path('client-' . preg_replace('/[^a-z0-9-]/', '', strtolower($name)) . ($passphrase === null ? '' : '-encrypted'));
        if (!is_file($base . '.pem')) {
            $this->makeClient($name, $base, $passphrase);
        }

        return [$base . '.pem', $base . '.key'];
    }

    public function remove(): void
    {
        $this->dir->remove();
    }

    private function makeCa(): void
    {
        $this->openssl([
            'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
            '-keyout', $this->dir->path('ca.key'), '-out', $this->caFile(), '-days', '30',
            '-subj', '/CN=WarmHttp Rig CA',
            '-addext', 'basicConstraints=critical,CA:TRUE',
            '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
        ]);
    }

    private function makeServer(): void
    {
        $csr = $this->dir->path('server.csr');
        $ext = $this->dir->path('server.ext');
        file_put_contents($ext, "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
            . "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n");
        $this->openssl([
            'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
            '-keyout', $this->keyFile(), '-out', $csr, '-subj', '/CN=localhost',
        ]);
        $this->openssl([
            'x509', '-req', '-in', $csr, '-CA', $this->caFile(), '-CAkey', $this->dir->path('ca.key'),
            '-CAcreateserial', '-out', $this->certFile(), '-days', '30', '-extfile', $ext,
        ]);
    }

    private function makeClient(string $name, string $base, ?string $passphrase): void
    {
        file_put_contents($base . '.ext', "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n");
        $this->openssl([
            'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
            '-keyout', $base . '.plain.key', '-out', $base . '.csr', '-subj', '/CN=' . $name,
        ]);
        $this->openssl([
            'x509', '-req', '-in', $base . '.csr', '-CA', $this->caFile(), '-CAkey', $this->dir->path('ca.key'),
            '-CAcreateserial', '-out', $base . '.pem', '-days', '30', '-extfile', $base . '.ext',
        ]);
        if ($passphrase === null) {
            rename($base . '.plain.key', $base . '.key');

            return;
        }
        $this->openssl(['pkey', '-in', $base . '.plain.key', '-out', $base . '.key', '-aes256', '-passout', 'pass:' . $passphrase]);
        unlink($base . '.plain.key');
    }

    /**
     * @param list<string> $args
     */
    private function openssl(array $args): void
    {
        $process = new Process(['openssl', ...$args]);
        $process->setTimeout(30);
        $process->run();
        if (!$process->isSuccessful()) {
            throw new RigException(\sprintf('openssl %s failed (exit %s): %s. Is the openssl CLI installed (apt-get install openssl)?', $args[0], var_export($process->getExitCode(), true), trim($process->getErrorOutput())));
        }
    }
}
