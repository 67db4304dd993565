import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLineIndex, decodeSource, parseJsonDocument } from '@skeval/evals/internal';
import { type SkevalConfig, SkevalError, skevalConfigSchema } from '@skeval/schema';
import { bundleGrader, graderCacheDir } from '@skeval/scripts/internal';
import type * as z from 'zod';
import { reporterNames } from '../reporters/render-report.js';
import { type ConfigIssue, type ConfigSyntax, configIssue, describeConfigIssues } from './config-issues.js';

/** A config file, read and checked. */
export interface LoadedConfig {
  /** The file's absolute path. */
  file: string;
  /** Its settings, checked against the schema (relative paths in them are relative to the file's folder). */
  config: z.output<typeof skevalConfigSchema>;
}

export interface LoadConfigFileOptions {
  /** Where messages name the file from. @default process.cwd() */
  cwd?: string;
  /** Where a compiled TypeScript or JavaScript config is kept. @default graderCacheDir(env) */
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
}

const scriptExtensions = new Set(['.ts', '.mts', '.mjs', '.js']);

/**
 * Reads a `skeval.config.*`: JSON parsed with every problem located at its line and column;
 * TypeScript and JavaScript compiled to one module (cached, as custom graders are) and its
 * default export read. Every value is checked; all problems are reported at once, as an
 * `invalid_input` error whose lines name the file, the key and the fix.
 */
export async function loadConfigFile(path: string, options: LoadConfigFileOptions = {}): Promise<LoadedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = resolve(cwd, path);
  const shown = relative(cwd, file) || file;
  const extension = extname(file);
  if (extension !== '.json' && !scriptExtensions.has(extension)) {
    throw new SkevalError({
      code: 'usage',
      message: `${shown}: a config file is .ts, .mts, .mjs, .js or .json (skeval.config.json, for example)`,
    });
  }
  const bytes = await readFile(file).catch((error: unknown) => {
    throw new SkevalError({
      code: 'usage',
      message: `cannot read the config file ${shown}: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  });
  if (extension === '.json') return { file, config: checkJson(bytes, shown) };
  const value = await importScript(file, options).catch((error: unknown) => {
    if (error instanceof SkevalError && (error.code === 'invalid_input' || error.code === 'usage')) throw error;
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() || 'no message';
    throw new SkevalError({
      code: 'usage',
      message: `${shown}: the config file failed to load: ${first}; fix the file, or name another with --config <file>`,
      cause: error,
    });
  });
  return { file, config: check(value, shown, 'js', (issue) => `${shown}: error: ${issue.message}`) };
}

function checkJson(bytes: Uint8Array, shown: string): z.output<typeof skevalConfigSchema> {
  const decoded = decodeSource(bytes);
  if (!decoded.ok) {
    const at = createLineIndex(decoded.textBefore).locate(decoded.textBefore.length);
    throw invalid([`${shown}:${at.line}:${at.column}: error: the file is not UTF-8 text; save it as UTF-8`]);
  }
  const lines = createLineIndex(decoded.text);
  const parsed = parseJsonDocument(decoded.text);
  if (!parsed.ok) {
    throw invalid(
      parsed.problems.map((problem) => {
        const at = lines.locate(problem.offset);
        const message =
          problem.kind === 'json-comment'
            ? 'JSON does not allow comments; remove it, or write the config as skeval.config.ts or .mjs, which may have them'
            : problem.message;
        return `${shown}:${at.line}:${at.column}: error: ${message}`;
      }),
    );
  }
  const { document } = parsed;
  const offsetOf = (issue: ConfigIssue) => document.offsetOf(issue.path, { key: issue.atKey === true });
  return check(
    document.value,
    shown,
    'json',
    (issue) => {
      const at = lines.locate(offsetOf(issue));
      return `${shown}:${at.line}:${at.column}: error: ${issue.message}`;
    },
    (a, b) => offsetOf(a) - offsetOf(b),
  );
}

function check(
  value: unknown,
  shown: string,
  syntax: ConfigSyntax,
  format: (issue: ConfigIssue) => string,
  order?: (a: ConfigIssue, b: ConfigIssue) => number,
): z.output<typeof skevalConfigSchema> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const fix =
      syntax === 'json'
        ? 'write an object, such as { "agent": "command" }'
        : 'export an object: export default defineConfig({ agent: "command" })';
    throw invalid([
      `${shown}: error: the config must be an object, got ${Array.isArray(value) ? 'a list' : typeof value}; ${fix}`,
    ]);
  }
  const parsed = skevalConfigSchema.safeParse(value);
  const issues = parsed.success
    ? reporterIssues(parsed.data, syntax)
    : describeConfigIssues(parsed.error, value, syntax);
  if (issues.length > 0 || !parsed.success) throw invalid((order ? issues.sort(order) : issues).map(format));
  return parsed.data;
}

/** Reporter names are checked against the reporters there are, as `--reporter` checks them. */
function reporterIssues(config: SkevalConfig, syntax: ConfigSyntax): ConfigIssue[] {
  return (config.reporters ?? []).flatMap((entry, index) => {
    const colon = entry.indexOf(':');
    const name = colon === -1 ? entry : entry.slice(0, colon);
    if (!reporterNames.some((known) => known === name)) {
      return [
        configIssue(
          ['reporters', index],
          `unknown reporter "${name}"; the reporters are ${reporterNames.join(', ')}`,
          syntax,
        ),
      ];
    }
    if (colon !== -1 && entry.slice(colon + 1).trim() === '') {
      return [
        configIssue(['reporters', index], `"${entry}" needs a file after the colon, as ${name}:report.out`, syntax),
      ];
    }
    return [];
  });
}

/** The default export of a TypeScript or JavaScript config, compiled and imported in this process. */
async function importScript(file: string, options: LoadConfigFileOptions): Promise<unknown> {
  const bundled = await bundleGrader(file, {
    mode: 'config',
    cacheDir: options.cacheDir ?? graderCacheDir(options.env ?? process.env),
  });
  // The bundle's path stays the same when the file changes: its hash makes each version a module of its own.
  const hash = createHash('sha256')
    .update(await readFile(bundled))
    .digest('hex')
    .slice(0, 16);
  const loaded: unknown = await import(`${pathToFileURL(bundled).href}?v=${hash}`);
  const configModule: unknown = Reflect.get(Object(loaded), 'default');
  const shown = relative(options.cwd ?? process.cwd(), file) || file;
  if (!Reflect.has(Object(configModule), 'default')) {
    throw invalid([`${shown}: error: the file has no default export; write export default defineConfig({ … })`]);
  }
  const value: unknown = await Reflect.get(Object(configModule), 'default');
  if (typeof value === 'function') {
    throw invalid([
      `${shown}: error: the default export is a function; export the settings themselves: export default defineConfig({ … })`,
    ]);
  }
  return value;
}

function invalid(lines: string[]): SkevalError {
  return new SkevalError({ code: 'invalid_input', message: lines.join('\n') });
}
