import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const banner =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

// The bin is bundled into a few self-contained files, each tree-shaken on its own: the command
// line (commander and the dispatcher, also what `skeval assert` loads as `@skeval/assert/main`), the built-in graders, and the custom-grader runner. The
// dispatcher loads only the one it needs, so `skeval-assert keyword-check` never evaluates zod
// or the built-ins, and a bare module graph keeps start-up close to a plain Node process.
// esbuild stays external: it is loaded, lazily, only to compile a custom grader not yet cached.
const separateRunners: Plugin = {
  name: 'separate-grader-runners',
  setup(build) {
    build.onResolve(
      { filter: /^\.\/(assert-main|run-built-in|run-custom|read-input-file|list-graders)\.js$/ },
      (args) => ({
        path: args.path,
        external: true,
      }),
    );
  },
};

const bundled = {
  format: ['esm'],
  sourcemap: true,
  target: 'node20',
  splitting: false,
  minify: true,
  noExternal: [/^(?!esbuild$|ajv(\/.*)?$).*/],
  esbuildPlugins: [separateRunners],
} satisfies Options;

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    clean: true,
    sourcemap: true,
    target: 'node20',
    external: [/^@skeval\//],
  },
  { ...bundled, entry: ['src/cli.ts'], banner: { js: `#!/usr/bin/env node\n${banner}` } },
  {
    ...bundled,
    entry: [
      'src/assert-main.ts',
      'src/run-built-in.ts',
      'src/run-custom.ts',
      'src/read-input-file.ts',
      'src/list-graders.ts',
    ],
    banner: { js: banner },
  },
]);
