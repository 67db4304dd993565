import { defineConfig } from 'tsup';

export default defineConfig({
  // `./internal`: the CLI's text helpers, apart from the documented entry.
  entry: ['src/index.ts', 'src/internal.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
