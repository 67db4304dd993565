import { defineConfig } from 'tsup';

export default defineConfig({
  // One output module per source file (no bundling), as in the schema and scripts packages: with
  // `sideEffects: false` a bundler keeps only the modules a program reaches, so `skeval validate`
  // carries no importer, lint rule or brief it does not run, and what the loader imports with
  // `import()` on first use stays a chunk of its own.
  entry: ['src/**/*.ts', '!src/**/*.test.ts', '!src/**/__fixtures__/**'],
  bundle: false,
  format: ['esm'],
  dts: { entry: ['src/index.ts', 'src/internal.ts', 'src/validate.ts'] },
  clean: true,
  sourcemap: true,
  target: 'node20',
});
