import { defineConfig } from 'tsup';

export default defineConfig({
  // One output module per source file (no bundling), so with `sideEffects: false` a bundler
  // keeps only the schemas a program uses: `skeval-assert` running a custom grader loads no zod.
  entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/__fixtures__/**'],
  bundle: false,
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/internal.ts', 'src/one-shot.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
