import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

// `import { defineConfig } from '@skeval/cli'` (src/index.ts) is a plain module over the packages.
// The command is bundled, with the workspace packages and their dependencies, and its parts load
// only when they run: the dispatcher (src/cli.ts: commander and the table of commands) loads a
// command's file to run that command or print its help, so `skeval --version` and `--help`
// read one file. The commands that start in a blink (validate, brief, transpile, import) are each
// built on their own, tree-shaken alone: of the per-file schema package and zod they load the
// schemas they read, with no zod locale but English. Each is code-split by itself, so what the
// packages import with `import()` on first use (yaml on the first YAML file, the glob library, the
// diff library, picomatch, the engine for `import -o`) is a chunk beside it, compiled only when
// it runs (decision 0062). A module reached from a command's file through a package's main or
// internal entry joins that file's chunks even when only an `import()` uses it, so `validate`
// reaches the packages through their narrow entries, and the dispatcher makes zod's one-shot
// setting before it loads any of the four, so it precedes every schema (decision 0074). The
// commands that run the engine share
// code-split chunks, which esbuild fills with whole modules (every schema behind a barrel), a cost
// next to the agents and judges they start.
// External stay what must be found at run time beside this package (esbuild's binary, ajv,
// which the regex worker requires by path, the provider SDKs, loaded when a judge first calls)
// and skeval-assert's own bundle, loaded alone by `skeval assert`.
const runtime = '(esbuild|ajv|openai|@anthropic-ai\\/sdk|@skeval\\/assert)(\\/|$)';

const commandsOutside: Plugin = {
  name: 'commands-outside',
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
  },
};

// yaml's ES module build (its `default` export condition) instead of its CommonJS one, so only
// the parts of yaml a command calls are bundled: the CommonJS build is one 270 kB whole. The
// engine's chunks take it too: there `import('yaml')` of the bundled CommonJS build would give a
// module with only a `default`, and every named import (`parse`, `parseDocument`) undefined.
const yamlModules: Plugin = {
  name: 'yaml-modules',
  setup(build) {
    build.onResolve({ filter: /^yaml$/ }, async (args) => {
      const found = await build.resolve('yaml/package.json', { kind: args.kind, resolveDir: args.resolveDir });
      return { path: found.path.replace(/package\.json$/, 'browser/index.js') };
    });
  },
};

const quick = ['validate', 'brief', 'transpile', 'import'];
const engine = ['init', 'check', 'run', 'grade', 'compare', 'calibrate', 'merge', 'report', 'triggers', 'doctor'];
const entries = (names: string[]) =>
  Object.fromEntries(names.map((name) => [`commands/${name}`, `src/commands/${name}.ts`]));

const bundled = {
  format: ['esm'],
  sourcemap: true,
  target: 'node20',
  splitting: false,
  noExternal: [new RegExp(`^(?!${runtime})`)],
  external: [new RegExp(`^${runtime}`)],
  esbuildOptions(options) {
    // A package's ES module build where it has one (jsonc-parser's UMD build requires its own files at run time).
    options.mainFields = ['module', 'main'];
    options.minifyWhitespace = true;
    options.minifySyntax = true;
  },
} satisfies Options;

// Bundled CommonJS dependencies (commander among them) call require().
const requireShim =
  "import { createRequire as __skevalCreateRequire } from 'node:module'; const require = __skevalCreateRequire(import.meta.url);";

export default defineConfig([
  { entry: ['src/index.ts'], format: ['esm'], dts: true, clean: true, sourcemap: true, target: 'node20' },
  {
    ...bundled,
    entry: ['src/cli.ts'],
    esbuildPlugins: [commandsOutside],
    banner: { js: `#!/usr/bin/env node\n${requireShim}` },
  },
  ...quick.map((name) => ({
    ...bundled,
    splitting: true,
    entry: entries([name]),
    esbuildPlugins: [yamlModules],
    banner: { js: requireShim },
  })),
  { ...bundled, entry: entries(engine), splitting: true, esbuildPlugins: [yamlModules], banner: { js: requireShim } },
]);
