<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Integration\Rig;

use PHPUnit\Framework\TestCase;
use WarmHttp\Rig\Certificate;

final class CertificateTest extends TestCase
{
    public function testServerCertificateIsSignedByTheCaForLoopbackNames(): void
    {
        $certificate = Certificate::generate();
        try {
            self::assertFileExists($certificate->keyFile());
            $pem = (string) file_get_contents($certificate->certFile());
            $caKey = openssl_pkey_get_public((string) file_get_contents($certificate->caFile()));
            self::assertNotFalse($caKey);
            self::assertSame(1, openssl_x509_verify($pem, $caKey));
            $parsed = openssl_x509_parse($pem);
            self::assertIsArray($parsed);
            self::assertIsArray($parsed['extensions']);
            $san = $parsed['extensions']['subjectAltName'];
            self::assertIsString($san);
            self::assertStringContainsString('DNS:localhost', $san);
            self::assertStringContainsString('IP Address:127.0.0.1', $san);
        } finally {
            $certificate->remove();
        }
        self::assertFileDoesNotExist($certificate->caFile());
    }
}
