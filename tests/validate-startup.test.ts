import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What the built `skeval validate` loads, recorded by a resolve hook (`module.register`) in the
// process that runs it: a plain evals.json must not load the YAML parser, which is bundled apart
// and loaded on the first YAML file read, nor the importers of other tools' files, the lint rules
// or the built-in graders, each in chunks of their own. Each is told by a string only it holds.
// And zod's one-shot setting must come before every schema: a schema built earlier compiles a
// parser with `new Function` on its first parse, which a preload counts.

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(repoRoot, 'apps/cli/dist/cli.js');
const yamlMarker = 'tag:yaml.org,2002:';
/** Strings only the importers, the lint rules and the built-in graders hold (an error, a rule name, a verdict). */
const lazyMarkers = ['is neither a promptfoo config', 'unused-expected-output', 'the response is exactly'];

/** Records each resolved file URL, one a line, in the file named by SKEVAL_TEST_LOADED. */
const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(process.env.SKEVAL_TEST_LOADED, result.url + '\\n');
  return result;
}
`;
const register = (hooksUrl: string) =>
  `import { register } from 'node:module';\nregister(${JSON.stringify(hooksUrl)});\n`;

/** Counts, in the file named by SKEVAL_TEST_COMPILED, the functions zod compiles to parse an object. */
const countCompiles = `import { appendFileSync } from 'node:fs';
const Native = Function;
globalThis.Function = new Proxy(Native, {
  construct(target, args, newTarget) {
    if (String(args.at(-1)).includes('payload')) appendFileSync(process.env.SKEVAL_TEST_COMPILED, 'compiled\\n');
    return Reflect.construct(target, args, newTarget === globalThis.Function ? target : newTarget);
  },
});
`;

let root: string;

/** Runs `skeval validate <path>` from the built CLI; returns its output and the files it loaded. */
async function validateLoading(path: string, ...flags: string[]): Promise<{ stdout: string; loaded: string[] }> {
  const log = join(root, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  const { stdout } = await run(
    process.execPath,
    ['--import', pathToFileURL(join(root, 'register.mjs')).href, cliPath, 'validate', path, ...flags],
    { cwd: repoRoot, env: { ...process.env, SKEVAL_TEST_LOADED: log } },
  );
  const urls = readFileSync(log, 'utf8').trim().split('\n');
  return { stdout, loaded: urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url)) };
}

const holding = (marker: string, files: string[]) =>
  files.filter((file) => readFileSync(file, 'utf8').includes(marker));
const holdsYaml = (files: string[]) => holding(yamlMarker, files);

/** Runs the built `skeval <args>` and returns how many object parsers zod compiled. */
async function compiledBy(args: string[]): Promise<number> {
  const log = join(root, `compiled-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(log, '');
  await run(process.execPath, ['--import', pathToFileURL(join(root, 'count-compiles.mjs')).href, cliPath, ...args], {
    cwd: repoRoot,
    env: { ...process.env, SKEVAL_TEST_COMPILED: log },
  });
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
}

beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} does not exist: run pnpm build first (pnpm test does)`);
  root = await mkdtemp(join(tmpdir(), 'skeval-validate-startup-'));
  await writeFile(join(root, 'hooks.mjs'), hooks);
  await writeFile(join(root, 'register.mjs'), register(pathToFileURL(join(root, 'hooks.mjs')).href));
  await writeFile(join(root, 'count-compiles.mjs'), countCompiles);
});
afterAll(() => (root ? rm(root, { recursive: true, force: true }) : undefined));

describe('the built skeval validate', () => {
  it('validates the greeting example without loading the YAML parser', async () => {
    const { stdout, loaded } = await validateLoading('examples/greeting');
    expect(stdout).toBe('1 file: 1 valid, 0 invalid, 0 warnings\n');
    expect(loaded).toContain(join(repoRoot, 'apps/cli/dist/commands/validate.js'));
    expect(holdsYaml(loaded)).toEqual([]);
  });

  it('validates it without loading the importers, the lint rules or the built-in graders', async () => {
    const { loaded } = await validateLoading('examples/greeting');
    expect(lazyMarkers.map((marker) => holding(marker, loaded))).toEqual([[], [], []]);
  });

  it('loads the importers to read a promptfoo config and the lint rules with --lint', async () => {
    const { loaded } = await validateLoading(
      'packages/evals/src/__fixtures__/real-world/promptfoo-ydb/promptfooconfig.yaml',
    );
    expect(holding(lazyMarkers[0] ?? '', loaded)).toHaveLength(1);
    const linted = await validateLoading('examples/greeting', '--lint');
    expect(holding(lazyMarkers[1] ?? '', linted.loaded)).toHaveLength(1);
  });

  it('builds every schema after zod is set to parse without compiling, in each quick command', async () => {
    const promptfoo = 'packages/evals/src/__fixtures__/real-world/promptfoo-ydb/promptfooconfig.yaml';
    const compiled = [
      await compiledBy(['validate', 'examples/greeting']),
      await compiledBy(['brief', 'examples/greeting']),
      await compiledBy(['transpile', 'examples/greeting/evals/evals.json']),
      await compiledBy(['import', promptfoo]),
    ];
    expect(compiled).toEqual([0, 0, 0, 0]);
  });

  it('loads the YAML parser to read a promptfoo config', async () => {
    const { stdout, loaded } = await validateLoading(
      'packages/evals/src/__fixtures__/real-world/promptfoo-ydb/promptfooconfig.yaml',
    );
    expect(stdout).toMatch(/^1 file: 1 valid, 0 invalid, \d+ warnings\n$/m);
    expect(holdsYaml(loaded)).toHaveLength(1);
  });
});
