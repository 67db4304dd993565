import { defineConfig } from 'tsup';

export default defineConfig({
  // `./internal`: what Skeval's own packages, CLI and tests share beyond the documented entry.
  entry: ['src/index.ts', 'src/internal.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
