import { defineConfig } from 'tsup';

export default defineConfig({
  // One output module per source file (no bundling), so with `sideEffects: false` a bundler
  // keeps only what is used: a custom grader that imports `defineScriptGrader` does not carry
  // every built-in grader, zod and ajv into its compiled file.
  entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/__fixtures__/**'],
  bundle: false,
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/internal.ts', 'src/grader-names.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
