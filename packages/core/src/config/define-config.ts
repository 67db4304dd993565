import type { SkevalConfig } from '@skeval/schema';

/**
 * Types a `skeval.config.ts` (or `.mjs`, `.js`): `export default defineConfig({ … })`. It
 * returns the config as given; Skeval checks the values when it reads the file.
 */
export function defineConfig(config: SkevalConfig): SkevalConfig {
  return config;
}
