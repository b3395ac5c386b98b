<?php

declare(strict_types=1);

namespace Laravel\Octane\Events;

use Illuminate\Foundation\Application;
use Illuminate\Http\Request;
use Symfony\Component\HttpFoundation\Response;

/**
 * Test stand-in for laravel/octane's event of the same name and constructor (the package is
 * not in the registry copy here): dispatched on the sandbox's events after the response.
 */
final class RequestTerminated
{
    public function __construct(public Application $app, public Application $sandbox, public Request $request, public Response $response) {}
}
