<?php

// opcache.preload for the bench's PHP-FPM pool (FpmBench, the preload row): the script the
// package ships for apps (src/preload.php), so the row measures what users get from it.
declare(strict_types=1);

require dirname(__DIR__, 2) . '/src/preload.php';
