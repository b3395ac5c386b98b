<?php

declare(strict_types=1);

namespace Laravel\Octane\Events;

use Illuminate\Foundation\Application;
use Illuminate\Http\Request;

/**
 * Test stand-in for laravel/octane's event of the same name and constructor (the package is
 * not in the registry copy here): dispatched on the sandbox's events when a request arrives.
 */
final class RequestReceived
{
    public function __construct(public Application $app, public Application $sandbox, public Request $request) {}
}
