<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

use Psr\Http\Client\ClientExceptionInterface;

/**
 * Marker for every exception WarmHttp throws while sending: catch this to catch them all.
 */
interface WarmHttpException extends ClientExceptionInterface {}
