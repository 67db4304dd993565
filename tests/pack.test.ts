import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { glob } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userEnv } from './user-env.js';

// What a user gets from npm: every published package packed with pnpm (workspace:* becomes a
// version), installed with npm alone into an empty folder outside the repository, then run
// there through npx. Third-party dependencies come from the registry, so without one the
// install cannot happen; that is the one reason to skip, and never in CI.

const root = fileURLToPath(new URL('..', import.meta.url));

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
  bin?: Record<string, string>;
  exports?: Record<string, unknown>;
  types?: string;
  engines?: { node?: string };
  files?: string[];
  publishConfig?: { access?: string; exports?: Record<string, unknown> };
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readManifest = (file: string): Manifest => JSON.parse(readFileSync(file, 'utf8'));

const workspace = (
  await glob(['packages/*/package.json', 'apps/*/package.json', 'tools/*/package.json'], { cwd: root })
)
  .sort()
  .map((path) => ({ dir: join(root, path, '..'), manifest: readManifest(join(root, path)) }));
const published = workspace.filter(({ manifest }) => !manifest.private);
const versions = new Map(workspace.map(({ manifest }) => [manifest.name, manifest.version]));

/** The test tools: private, never published. Everything else is. */
const testTools = ['@skeval/agent-clis', '@skeval/fake-provider'];

interface Outcome {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = userEnv()): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
}

/** Runs a command that must succeed; its output is in the error when it does not. */
async function mustRun(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Outcome> {
  const outcome = await run(command, args, cwd, env);
  if (outcome.exitCode !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) exited ${outcome.exitCode}\n${outcome.stdout}\n${outcome.stderr}`,
    );
  }
  return outcome;
}

function registrySkipReason(): string | undefined {
  if (process.env.CI) return undefined;
  const ping = spawnSync('npm', ['ping'], { env: userEnv(), encoding: 'utf8', timeout: 30_000 });
  if (ping.status === 0) return undefined;
  const why = (ping.error?.message ?? ping.stderr ?? '').trim().split('\n').at(-1) ?? '';
  return `skipped: npm cannot reach its registry for the third-party dependencies (npm ping: ${why})`;
}

/** Every file path an exports map points at (conditions and subpaths flattened). */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

function exportConditions(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => [key, ...exportConditions(inner)]);
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the packages', () => {
  it('are all published but the test tools', () => {
    expect(workspace.filter(({ manifest }) => manifest.private).map(({ manifest }) => manifest.name)).toEqual(
      testTools,
    );
    expect(published.map(({ manifest }) => manifest.name)).toEqual(
      expect.arrayContaining(['@skeval/cli', '@skeval/assert', '@skeval/core', '@skeval/schema']),
    );
  });

  it.each(published.map(({ manifest }) => [manifest.name, manifest] as const))(
    '%s declares what a registry and an installer need',
    (_name, manifest) => {
      expect(manifest.license).toBe('MIT');
      expect(manifest.engines?.node).toBe('>=20.11');
      expect(manifest.publishConfig?.access).toBe('public');
      expect(manifest.files).toContain('dist');
      expect(manifest.files).toContain('!dist/**/*.map');
      // The published exports are the workspace's, less the condition that points at sources.
      if (manifest.exports) {
        expect(Object.keys(manifest.publishConfig?.exports ?? {})).toEqual(Object.keys(manifest.exports));
        expect(exportConditions(manifest.publishConfig?.exports)).not.toContain('@skeval/source');
      }
    },
  );

  it.each(published.flatMap(({ dir, manifest }) => Object.values(manifest.bin ?? {}).map((bin) => [bin, dir])))(
    'links a bin that exists before any build: %s',
    (bin, dir) => {
      expect(bin).toMatch(/^\.\/bin\/[\w-]+\.mjs$/);
      expect(existsSync(join(dir, bin))).toBe(true);
    },
  );

  it('are versioned by changesets as one group, none of them ignored', () => {
    const config = JSON.parse(readFileSync(join(root, '.changeset/config.json'), 'utf8'));
    expect(config.ignore).toEqual([]);
    expect([...config.fixed[0]].sort()).toEqual(published.map(({ manifest }) => manifest.name).sort());
  });
});

const skipReason = registrySkipReason();

// Each command starts Node through npx; on a loaded machine (the whole suite at once) the
// example run alone can take several seconds.
describe.skipIf(skipReason !== undefined)(
  `the tarballs installed with npm alone ${skipReason ?? ''}`,
  { timeout: 120_000 },
  () => {
    let temp: string;
    let project: string;
    const installed = (name: string) => join(project, 'node_modules', name);
    // npx must use the installed bin and never fetch a package of that name from the registry.
    const npx = (args: string[]) => run('npx', args, project, { ...userEnv(), npm_config_yes: 'false' });

    beforeAll(async () => {
      const unbuilt = published.filter(({ dir }) => !existsSync(join(dir, 'dist')));
      if (unbuilt.length) {
        throw new Error(
          `${unbuilt.map(({ manifest }) => manifest.name).join(', ')}: no dist/ to pack; run pnpm build first (pnpm test does)`,
        );
      }
      temp = await mkdtemp(join(tmpdir(), 'skeval-pack-'));
      const tarballs = join(temp, 'tarballs');
      project = join(temp, 'project');
      await mkdir(project, { recursive: true });
      // pnpm alone turns workspace:* into versions; the test runner's env would point it at the
      // workspace it runs in, which is where it should be, so it keeps that environment.
      const packed = await Promise.all(
        published.map(async ({ dir }) => {
          const { stdout } = await mustRun(
            'pnpm',
            ['pack', '--json', '--pack-destination', tarballs],
            dir,
            process.env,
          );
          const report: { filename: string } = JSON.parse(stdout);
          return report.filename;
        }),
      );
      await mustRun('npm', ['init', '-y'], project);
      await mustRun('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed], project);
      // The example skill, its scripted agent and its custom graders, as a user would have them.
      await cp(join(root, 'examples/greeting'), join(project, 'greeting'), { recursive: true });
      await cp(join(root, 'examples/agents'), join(project, 'agents'), { recursive: true });
      await cp(join(root, 'examples/.skeval'), join(project, '.skeval'), { recursive: true });
      // The evals file points its editor at the JSON Schema the install brought.
      const evalsFile = join(project, 'greeting/evals/evals.json');
      const evals = JSON.parse(await readFile(evalsFile, 'utf8'));
      const schema = '../../node_modules/@skeval/schema/json-schema/evals.schema.json';
      await writeFile(evalsFile, `${JSON.stringify({ $schema: schema, ...evals }, null, 2)}\n`);
    }, 600_000);

    afterAll(async () => {
      if (temp) await rm(temp, { recursive: true, force: true });
    });

    it.each(published.map(({ manifest }) => [manifest.name, manifest] as const))(
      '%s installs with versions for workspace:* and only the files that run',
      (name, workspaceManifest) => {
        const dir = installed(name);
        const manifest = readManifest(join(dir, 'package.json'));
        expect(manifest.private).toBeUndefined();
        expect(manifest.version).toBe(workspaceManifest.version);
        for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const) {
          for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
            expect(range, `${name} ${field}.${dependency}`).not.toMatch(/^workspace:/);
            if (versions.has(dependency))
              expect(range, `${name} ${field}.${dependency}`).toBe(versions.get(dependency));
          }
        }
        const files = listFiles(dir);
        expect(
          files.filter(
            (file) =>
              !/^(package\.json|README\.md|LICENSE|bin\/[\w-]+\.mjs|dist\/.+\.(js|d\.ts)|json-schema\/[\w-]+\.schema\.json)$/.test(
                file,
              ),
          ),
        ).toEqual([]);
        expect(files).toContain('LICENSE');
        const targets = [
          ...exportTargets(manifest.exports),
          ...Object.values(manifest.bin ?? {}),
          ...(manifest.types ? [manifest.types] : []),
        ];
        for (const target of targets) {
          const path = join(dir, target.replace(/\/\*$/, ''));
          expect(existsSync(path), `${name}: ${target} is in package.json but not in the tarball`).toBe(true);
        }
        expect(exportConditions(manifest.exports)).not.toContain('@skeval/source');
      },
    );

    it('resolves every @skeval library from the project itself, not from the repository', async () => {
      const names = published.filter(({ manifest }) => manifest.exports).map(({ manifest }) => manifest.name);
      const script = `for (const name of ${JSON.stringify(names)}) console.log(import.meta.resolve(name));`;
      const { stdout } = await mustRun(process.execPath, ['--input-type=module', '-e', script], project);
      const resolved = stdout.trim().split('\n').map(fileURLToPath);
      expect(resolved).toHaveLength(names.length);
      for (const [index, path] of resolved.entries()) {
        expect(path.startsWith(installed(names[index] ?? ''))).toBe(true);
      }
    });

    it('npx skeval --version prints the version, and npx @skeval/cli finds the same command', async () => {
      const expected = `${versions.get('@skeval/cli')}\n`;
      expect(await npx(['skeval', '--version'])).toMatchObject({ exitCode: 0, stdout: expected });
      expect(await npx(['@skeval/cli', '--version'])).toMatchObject({ exitCode: 0, stdout: expected });
    });

    it('ships the JSON Schema where the docs say, and it accepts the example with its $schema key', async () => {
      const schemaFile = join(project, 'node_modules/@skeval/schema/json-schema/evals.schema.json');
      expect(existsSync(schemaFile)).toBe(true);
      const evals = JSON.parse(await readFile(join(project, 'greeting/evals/evals.json'), 'utf8'));
      expect(join(project, 'greeting/evals', evals.$schema)).toBe(schemaFile);
      // Validated with the Ajv the install brought (draft 2020-12, as the file declares).
      const requireFromScripts = createRequire(join(installed('@skeval/scripts'), 'package.json'));
      const Ajv2020 = requireFromScripts('ajv/dist/2020').default;
      const validate = new Ajv2020({ strict: false }).compile(JSON.parse(await readFile(schemaFile, 'utf8')));
      expect(validate(evals), JSON.stringify(validate.errors)).toBe(true);
    });

    it('npx skeval validate accepts the example', async () => {
      expect(await npx(['skeval', 'validate', 'greeting'])).toMatchObject({
        exitCode: 0,
        stdout: '1 file: 1 valid, 0 invalid, 0 warnings\n',
      });
    });

    it('npx skeval run runs the example end to end, its custom TypeScript grader included, and skeval report reads it', async () => {
      const agent = `node ${join(project, 'agents/greeting-agent.mjs')} {prompt_file}`;
      const outcome = await npx([
        'skeval',
        'run',
        'greeting',
        '--agent',
        'command',
        '--agent-command',
        agent,
        '--output-dir',
        'runs',
      ]);
      expect(outcome.exitCode, outcome.stderr).toBe(0);
      expect(outcome.stdout).toContain('greeting');
      const [runId] = readdirSync(join(project, 'runs/greeting'));
      const runDir = join(project, 'runs/greeting', runId ?? '');
      // summary.json read back through the installed @skeval/schema, in the project's own Node.
      const script = `import { readFileSync } from 'node:fs';
import { runSummarySchema } from '@skeval/schema';
const summary = runSummarySchema.parse(JSON.parse(readFileSync(process.argv[1], 'utf8')));
console.log(JSON.stringify(summary.cases.map(({ id, status, passed, failed, errored, skipped }) => ({ id, status, passed, failed, errored, skipped }))));`;
      const { stdout } = await mustRun(
        process.execPath,
        ['--input-type=module', '-e', script, join(runDir, 'summary.json')],
        project,
      );
      expect(JSON.parse(stdout).sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id))).toEqual([
        { id: '1', status: 'ok', passed: 2, failed: 0, errored: 0, skipped: 1 },
        { id: 'named-ada', status: 'ok', passed: 3, failed: 0, errored: 0, skipped: 1 },
        { id: 'no-emoji', status: 'ok', passed: 3, failed: 0, errored: 0, skipped: 0 },
        { id: 'unrelated', status: 'ok', passed: 2, failed: 0, errored: 0, skipped: 0 },
      ]);
      const grading = JSON.parse(await readFile(join(runDir, 'eval-named-ada/grading.json'), 'utf8'));
      expect(grading.assertion_results).toContainEqual(
        expect.objectContaining({ text: 'length-check min=8 max=40', status: 'pass', evidence: expect.any(String) }),
      );
      // The HTML report comes from its own package, with its page compiled in.
      const report = await npx(['skeval', 'report', runDir]);
      expect(report.exitCode, report.stderr).toBe(0);
      expect(readFileSync(join(runDir, 'report.html'), 'utf8')).toContain('<html');
    });

    it('npx skeval-assert runs a custom TypeScript grader through the installed bin', async () => {
      const outcome = await npx([
        'skeval-assert',
        'length-check',
        '--agent-output',
        'Hello, Ada Lovelace! It is in greeting.txt.',
      ]);
      expect(outcome.exitCode, outcome.stderr).toBe(0);
      expect(JSON.parse(outcome.stdout)).toEqual({
        score: 1,
        assertions: [{ text: 'between 5 and 50 words', passed: true, evidence: '7 words' }],
      });
    });
  },
);
