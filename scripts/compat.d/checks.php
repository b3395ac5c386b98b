<?php

declare(strict_types=1);

// Small assertions shared by the compat smoke scripts. Included after the project's autoloader.

function check(bool $ok, string $what): void
{
    if (!$ok) {
        fwrite(STDERR, "FAILED: $what\n");
        exit(1);
    }
    echo "ok: $what\n";
}

/** A PSR-18 round trip to the loopback origin; WarmHttp's pool must count it. */
function checkWarmRequest(Psr\Http\Client\ClientInterface $client, string $origin): void
{
    $before = WarmHttp\Pool::stats()->requests;
    $request = (new Nyholm\Psr7\Factory\Psr17Factory())->createRequest('GET', $origin . '/psr18');
    $response = $client->sendRequest($request);
    check((string) $response->getBody() === 'warmhttp-compat GET /psr18', 'PSR-18 request through ' . $client::class);
    check(WarmHttp\Pool::stats()->requests === $before + 1, 'the request went through the warm pool');
}

function property(object $object, string $name): mixed
{
    return (new ReflectionProperty($object, $name))->getValue($object);
}
