<?php

declare(strict_types=1);

namespace WarmHttp\Tests\Unit;

use PHPUnit\Framework\TestCase;
use WarmHttp\Client;
use WarmHttp\Exception\InvalidOptionException;

/** Only what needs no transfer: option checking on construction and withOptions(). */
final class ClientTest extends TestCase
{
    public function testRefusesAnUnknownOptionOnConstruction(): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Unknown WarmHttp option "max_redirect". Did you mean "max_redirects"?');

        new Client(['max_redirect' => 3]);
    }

    public function testWithOptionsChecksTheNewOptions(): void
    {
        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Option "timeout" must be a number of seconds >= 0');

        (new Client())->withOptions(['timeout' => -1]);
    }

    public function testWithOptionsKeepsTheGivenOptionsAndLetsTheNewOnesWin(): void
    {
        // A cafile that disappears after construction shows which options withOptions() carries over.
        $cafile = (string) tempnam(sys_get_temp_dir(), 'warmhttp-ca');
        $client = new Client(['cafile' => $cafile]);
        unlink($cafile);

        self::assertInstanceOf(Client::class, $client->withOptions(['cafile' => null]));

        $this->expectException(InvalidOptionException::class);
        $this->expectExceptionMessage('Option "cafile": the file "' . $cafile . '" does not exist');

        $client->withOptions(['timeout' => 5]);
    }

    /**
     * No relay: every dispatch() is the fallback, which applies the relay's default policy.
     * An IP literal needs no DNS; the refusal comes before the journal is touched.
     */
    public function testDispatchRefusesALoopbackDestinationUnderTheRelaysDefaultPolicy(): void
    {
        $client = new Client(['relay_fallback_dir' => '/nonexistent/never-created']);

        try {
            $client->dispatch($client->createRequest('POST', 'http://127.0.0.1:9/hook'));
            self::fail('Expected a RequestException');
        } catch (\WarmHttp\Exception\RequestException $e) {
            self::assertStringContainsString('"relay_allow_private_networks" => true', $e->getMessage());
            self::assertStringContainsString('"relay_allowed_hosts" => ["127.0.0.1"]', $e->getMessage());
        }
        self::assertDirectoryDoesNotExist('/nonexistent/never-created');
    }
}
