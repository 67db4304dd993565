import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What @skeval/report loads, recorded rather than read from package.json: its built entry is
// imported in a child Node process whose resolve hook (`module.register`) writes down every
// specifier and the URL it resolved to, and the report of a real run folder is rendered and
// served there, so modules loaded only when a report is made are recorded too.

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const reportEntry = join(repoRoot, 'packages/report/dist/index.js');
const cliPath = join(repoRoot, 'apps/cli/dist/cli.js');

/** Packages of the engine that a viewer of run folders must never load. */
const engineOnly = ['execa', 'openai', '@anthropic-ai/sdk', 'shell-quote'];
/** Skeval's packages that are more than the run folder and its schemas. */
const enginePackages = ['core', 'evals', 'judge', 'scripts'];

/** Records each resolve, one JSON line a module, in the file the child names. */
const hooks = `import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) {
  log = data.log;
}
export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  appendFileSync(log, JSON.stringify({ specifier, url: result.url }) + '\\n');
  return result;
}
`;

/** Imports the entry, renders and serves the report of a run folder; prints what was loaded. */
const child = `import { readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const [hooksUrl, log, entryUrl, runDir] = process.argv.slice(2);
register(hooksUrl, { data: { log } });
const report = await import(entryUrl);
const rendered = await report.renderHtmlReport({ paths: [runDir], cwd: runDir });
const server = await report.serveReport({ paths: [runDir], cwd: runDir });
const page = await fetch(server.url);
await page.text();
await server.close();
// A CommonJS module that required another is in require's cache, whatever the hook saw.
const required = Object.keys(createRequire(import.meta.url).cache);
const resolved = readFileSync(log, 'utf8').trim().split('\\n').map((line) => JSON.parse(line));
console.log(JSON.stringify({ exports: Object.keys(report).sort(), html: rendered.html.length, page: page.status, resolved, required }));
`;

interface Loaded {
  exports: string[];
  html: number;
  page: number;
  resolved: Array<{ specifier: string; url: string }>;
  required: string[];
}

let root: string;
let runDir: string;
let loaded: Loaded;

/** The npm package a specifier or a file URL names (`@anthropic-ai/sdk`, `execa`), if any. */
function packageOf(name: string): string | undefined {
  const inModules = name.split('/node_modules/').at(-1) ?? '';
  const path = name.includes('/node_modules/') ? inModules : /^[@a-z]/.test(name) ? name : '';
  const parts = path.split('/');
  if (!parts[0]) return undefined;
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : parts[0];
}

beforeAll(async () => {
  for (const built of [reportEntry, cliPath])
    if (!existsSync(built)) throw new Error(`${built} does not exist: run pnpm build first (pnpm test does)`);
  root = await mkdtemp(join(tmpdir(), 'skeval-report-dependencies-'));
  const agent = `node ${join(repoRoot, 'examples/agents/greeting-agent.mjs')} {prompt_file}`;
  const example = join(repoRoot, 'examples/greeting');
  const output = join(root, 'runs');
  await run(
    process.execPath,
    [cliPath, 'run', example, '--agent', 'command', '--agent-command', agent, '--output-dir', output],
    {
      cwd: root,
    },
  );
  const [runId] = (await readdir(join(output, 'greeting'))).filter(
    (entry) => entry !== 'latest' && !entry.endsWith('.json'),
  );
  if (!runId) throw new Error(`skeval run wrote no run folder under ${output}`);
  runDir = join(output, 'greeting', runId);
  await writeFile(join(root, 'hooks.mjs'), hooks);
  await writeFile(join(root, 'child.mjs'), child);
  const { stdout } = await run(process.execPath, [
    join(root, 'child.mjs'),
    pathToFileURL(join(root, 'hooks.mjs')).href,
    join(root, 'resolved.jsonl'),
    pathToFileURL(reportEntry).href,
    runDir,
  ]);
  loaded = JSON.parse(stdout);
}, 120_000);
afterAll(() => (root ? rm(root, { recursive: true, force: true }) : undefined));

describe("@skeval/report's built entry, imported and used in a fresh Node", () => {
  it('exports renderHtmlReport and serveReport, and renders and serves a real run folder', () => {
    expect(loaded.exports).toEqual(['renderHtmlReport', 'serveReport']);
    expect(loaded.html).toBeGreaterThan(10_000);
    expect(loaded.page).toBe(200);
    // The hook saw the report's own imports: what it did not record was not loaded.
    expect(loaded.resolved.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining(['@skeval/run-folder', '@skeval/schema', 'zod']),
    );
  });

  it('loads none of execa, openai, @anthropic-ai/sdk and shell-quote', () => {
    const names = [...loaded.resolved.flatMap((entry) => [entry.specifier, entry.url]), ...loaded.required];
    const packages = new Set(names.map(packageOf));
    expect(engineOnly.filter((name) => packages.has(name))).toEqual([]);
  });

  it('loads no Skeval package beyond the run folder and the schemas', () => {
    const urls = loaded.resolved.map((entry) => entry.url);
    const engine = enginePackages.filter((name) =>
      urls.some((url) => url.includes(`/packages/${name}/`) || url.includes(`/@skeval/${name}/`)),
    );
    expect(engine).toEqual([]);
  });
});

/** Registers the recording hooks in a process started with `--import` (the hooks and the log named by the environment). */
const register = `import { register } from 'node:module';
register(process.env.SKEVAL_TEST_HOOKS, { data: { log: process.env.SKEVAL_TEST_LOG } });
`;

describe('skeval report, the built command, of a run folder named by its path', () => {
  it('writes the page without loading the engine or an HTTP server (no child_process, no http)', async () => {
    const log = join(root, 'command-resolved.jsonl');
    await writeFile(join(root, 'register.mjs'), register);
    const page = join(root, 'page.html');
    const { stdout } = await run(
      process.execPath,
      ['--import', pathToFileURL(join(root, 'register.mjs')).href, cliPath, 'report', runDir, '--output', page],
      {
        cwd: root,
        env: { ...process.env, SKEVAL_TEST_HOOKS: pathToFileURL(join(root, 'hooks.mjs')).href, SKEVAL_TEST_LOG: log },
      },
    );
    expect(stdout).toMatch(/^wrote .*page\.html: greeting; \d+ cases?, \d+ case runs?, [\d,]+ KB\n$/);
    const resolved: Array<{ specifier: string; url: string }> = (await readFile(log, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const specifiers = new Set(resolved.map((entry) => entry.specifier.replace(/^node:/, '')));
    // The hook saw the command's own modules, the page's writing among them.
    expect(specifiers.has('fs')).toBe(true);
    expect(['child_process', 'http'].filter((name) => specifiers.has(name))).toEqual([]);
    // zod's messages in English alone: its other locales (the German one says `erwartet`) stay out of the bundle.
    const files = [
      ...new Set(resolved.filter((entry) => entry.url.startsWith('file:')).map((entry) => fileURLToPath(entry.url))),
    ];
    expect(files.length).toBeGreaterThan(3);
    const withLocales = [];
    for (const file of files) if ((await readFile(file, 'utf8')).includes('erwartet')) withLocales.push(file);
    expect(withLocales).toEqual([]);
  });
});
