<?php

declare(strict_types=1);

// The rig is tooling of a checkout (autoload-dev): it runs with the checkout's vendor/.
$autoload = dirname(__DIR__, 2) . '/vendor/autoload.php';
if (!is_file($autoload)) {
    fwrite(STDERR, "Cannot find vendor/autoload.php: run composer install in the WarmHttp checkout\n");
    exit(1);
}

require $autoload;
