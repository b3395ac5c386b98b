<?php

declare(strict_types=1);

// The rig scripts run from a checkout (vendor/ beside bin/) or from vendor/warmhttp/warmhttp/bin.
foreach ([__DIR__ . '/../vendor/autoload.php', __DIR__ . '/../../../autoload.php'] as $autoload) {
    if (is_file($autoload)) {
        require $autoload;

        return;
    }
}

fwrite(STDERR, "Cannot find vendor/autoload.php: run composer install\n");
exit(1);
