<?php

declare(strict_types=1);

// Router for `php -S 127.0.0.1:0`: the loopback origin the compat smoke checks send requests to.
header('Content-Type: text/plain');
echo 'warmhttp-compat ', $_SERVER['REQUEST_METHOD'], ' ', $_SERVER['REQUEST_URI'];
