/**
 * What a `skeval.config.ts` imports from `@skeval/cli`: `defineConfig` and the config's types.
 * The command itself is `bin/skeval.mjs`.
 */
export { defineConfig, type Gates, type SkevalConfig, type SkillConfig } from '@skeval/core';
