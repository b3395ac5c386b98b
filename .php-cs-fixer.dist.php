<?php

declare(strict_types=1);

$finder = (new PhpCsFixer\Finder())->in([__DIR__ . '/src', __DIR__ . '/bench', __DIR__ . '/rig', __DIR__ . '/tests', __DIR__ . '/bin'])->name('*.php')->append([__DIR__ . '/bin/warmhttp']);

return (new PhpCsFixer\Config())
    ->setRiskyAllowed(true)
    ->setRules([
        '@PER-CS2.0' => true,
        'declare_strict_types' => true,
        'no_unused_imports' => true,
        // One style for null (and every) comparison: the variable first.
        'yoda_style' => ['equal' => false, 'identical' => false, 'less_and_greater' => false],
        'ordered_imports' => true,
        'native_function_invocation' => ['include' => ['@compiler_optimized'], 'scope' => 'namespaced', 'strict' => true],
    ])
    ->setFinder($finder);
