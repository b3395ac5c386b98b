<?php

declare(strict_types=1);

namespace WarmHttp\Exception;

/**
 * The `timeout` or `connect_timeout` option ran out before the response was complete.
 *
 * A NetworkException, as PSR-18 counts it: `catch (NetworkException $e)` and
 * `catch (NetworkExceptionInterface $e)` both catch timeouts; catch this class first to tell
 * them apart. curlErrno() is 28 (CURLE_OPERATION_TIMEDOUT) when libcurl timed out.
 */
final class TimeoutException extends NetworkException {}
