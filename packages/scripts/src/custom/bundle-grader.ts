import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SkevalError } from '@skeval/schema';

// Bumped when the generated entry changes, so old bundles are not reused.
const bundleFormat = 1;

type Esbuild = typeof import('esbuild');

interface ManifestInput {
  path: string;
  size: number;
  mtimeMs: number;
}

interface Manifest {
  format: number;
  inputs: ManifestInput[];
}

/** Where compiled graders are kept: `$XDG_CACHE_HOME/skeval/graders`, else `~/.cache/skeval/graders`. */
export function graderCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.SKEVAL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'skeval');
  return join(base, 'graders');
}

/**
 * Compiles a grader file (TypeScript or JavaScript, with what it imports) into one ES module
 * that reads the payload from stdin, calls the grader and prints its result. The bundle is
 * cached and reused while none of its input files changed, so a warm run starts plain Node on
 * one small file: no loader, no build step for the user.
 *
 * `mode: 'config'` compiles a `skeval.config.ts` the same way into a module whose default
 * export is the config file's module; its import of `defineConfig` (from the core or the CLI
 * package) gets the identity function, so a config never bundles the engine.
 */
export async function bundleGrader(
  graderFile: string,
  options: { cacheDir?: string; mode?: 'run' | 'describe' | 'config' } = {},
): Promise<string> {
  const file = resolve(graderFile);
  const mode = options.mode ?? 'run';
  const cacheDir = usableCacheDir(options.cacheDir ?? graderCacheDir());
  const key = createHash('sha256').update(`${bundleFormat}\0${mode}\0${file}`).digest('hex').slice(0, 32);
  const cached = join(cacheDir, `${key}.mjs`);
  if (isFresh(join(cacheDir, `${key}.json`))) return cached;

  // esbuild is CommonJS: depending on the loader its API is on the namespace or on `default`.
  const loaded: Partial<Esbuild> & { default?: Esbuild } = await import('esbuild');
  const build = loaded.build ?? loaded.default?.build;
  if (!build)
    throw new SkevalError({ code: 'grader_failed', message: 'esbuild was found, but not its `build` function' });
  // `run` grades the payload on stdin; `describe` prints the grader's description and exits.
  const entry = (
    mode === 'config'
      ? [`import * as configModule from ${JSON.stringify(file)};`, 'export default configModule;']
      : mode === 'run'
        ? [
            `import * as graderModule from ${JSON.stringify(file)};`,
            `const grader = graderModule.default;`,
            `if (grader && grader[Symbol.for('skeval.script-grader')]) {`,
            `  const chunks = [];`,
            `  for await (const chunk of process.stdin) chunks.push(chunk);`,
            `  const result = await grader.handler(JSON.parse(Buffer.concat(chunks).toString('utf8')));`,
            `  process.stdout.write(JSON.stringify(result) + '\\n');`,
            `}`,
          ]
        : [
            `import * as graderModule from ${JSON.stringify(file)};`,
            `const grader = graderModule.default;`,
            `const described = grader && grader[Symbol.for('skeval.script-grader')];`,
            `process.stdout.write(JSON.stringify({ description: described ? grader.description : null }) + '\\n');`,
            `process.exit(0);`,
          ]
  ).join('\n');
  const result = await build({
    stdin: { contents: entry, resolveDir: dirname(file), sourcefile: 'skeval-grader-entry.mjs', loader: 'js' },
    absWorkingDir: dirname(file),
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    metafile: true,
    logLevel: 'silent',
    external: ['*.node'],
    // CommonJS dependencies bundled into ESM still call require().
    banner: {
      js: "import { createRequire as __skevalCreateRequire } from 'node:module'; const require = __skevalCreateRequire(import.meta.url);",
    },
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) },
    plugins: [
      {
        // A grader may do its work at the top level (agentv-style scripts do): its module is
        // kept whole even in a package that declares `sideEffects: false`.
        name: 'keep-grader-module',
        setup(pluginBuild) {
          pluginBuild.onResolve({ filter: /.*/ }, (args) =>
            resolve(args.resolveDir, args.path) === file ? { path: file, sideEffects: true } : undefined,
          );
        },
      },
      ...(mode === 'config' ? [defineConfigPlugin] : []),
    ],
  }).catch((error: unknown) => {
    const detail = describeBuildErrors(error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new SkevalError({
      code: mode === 'config' ? 'invalid_input' : 'grader_failed',
      message: `cannot compile ${mode === 'config' ? 'the config file' : 'the grader'} ${graderFile}: ${detail || reason}`,
      cause: error,
    });
  });
  // The files that ended up in the bundle (tree-shaken ones are left out) decide its freshness.
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output?.inputs ?? {})
    .filter(
      ([input, use]) =>
        use.bytesInOutput > 0 &&
        !input.startsWith('<stdin>') &&
        !input.startsWith('skeval-config:') &&
        !input.endsWith('skeval-grader-entry.mjs'),
    )
    .map(([input]) => resolve(dirname(file), input));
  if (!inputs.includes(file)) inputs.push(file);
  const manifest: Manifest = { format: bundleFormat, inputs: inputs.map(describeInput) };
  const [bundled] = result.outputFiles;
  if (!bundled)
    throw new SkevalError({ code: 'grader_failed', message: `esbuild wrote no bundle for the grader ${graderFile}` });
  writeAtomically(cached, bundled.contents);
  writeAtomically(join(cacheDir, `${key}.json`), JSON.stringify(manifest));
  return cached;
}

/** `defineConfig` for config files: the identity, as `@skeval/core` exports it, without loading the engine. */
const defineConfigPlugin: import('esbuild').Plugin = {
  name: 'skeval-define-config',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^@skeval\/(core|cli)$/ }, (args) => ({
      path: args.path,
      namespace: 'skeval-config',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'skeval-config' }, () => ({
      contents: 'export function defineConfig(config) { return config; }',
      loader: 'js',
    }));
  },
};

/** The cache folder, created if needed; a temporary folder when it cannot be. */
function usableCacheDir(preferred: string): string {
  try {
    mkdirSync(preferred, { recursive: true });
    return preferred;
  } catch {
    const fallback = join(tmpdir(), 'skeval-graders');
    mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}

function describeInput(path: string) {
  const stats = statSync(path);
  return { path, size: stats.size, mtimeMs: stats.mtimeMs };
}

/**
 * esbuild's errors from a failed build, each located where esbuild knows the place; empty for
 * anything else thrown.
 */
function describeBuildErrors(error: unknown): string {
  const { errors }: { errors?: unknown } = typeof error === 'object' && error !== null ? error : {};
  return Array.isArray(errors) ? errors.map(describeBuildMessage).join('; ') : '';
}

function describeBuildMessage(message: unknown): string {
  if (typeof message !== 'object' || message === null) return String(message);
  const { text, location }: { text?: unknown; location?: unknown } = message;
  if (typeof location !== 'object' || location === null) return String(text);
  const { file, line, column }: { file?: unknown; line?: unknown; column?: unknown } = location;
  return `${file}:${line}:${column}: ${text}`;
}

function isManifestInput(value: unknown): value is ManifestInput {
  if (typeof value !== 'object' || value === null) return false;
  const { path, size, mtimeMs }: Partial<Record<keyof ManifestInput, unknown>> = value;
  return typeof path === 'string' && typeof size === 'number' && typeof mtimeMs === 'number';
}

/** A manifest as this code writes it; anything else (an older format, a damaged file) is not fresh. */
function isManifest(value: unknown): value is Manifest {
  if (typeof value !== 'object' || value === null) return false;
  const { format, inputs }: Partial<Record<keyof Manifest, unknown>> = value;
  return typeof format === 'number' && Array.isArray(inputs) && inputs.every(isManifestInput);
}

function isFresh(manifestPath: string): boolean {
  try {
    const manifest: unknown = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (!isManifest(manifest) || manifest.format !== bundleFormat) return false;
    return manifest.inputs.every((input) => {
      const stats = statSync(input.path);
      return stats.size === input.size && stats.mtimeMs === input.mtimeMs;
    });
  } catch {
    return false;
  }
}

function writeAtomically(path: string, contents: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}
