import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import {
  agentProviderEnv,
  codexConfigToml,
  type FakeProvider,
  piModelsJson,
  scriptAgent,
  startFakeProvider,
  writeHomeFile,
} from '@skeval/fake-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binary, repoRoot, runMerged } from './__fixtures__/run-cli.js';
import { bubblewrapWorks, onlyRunId } from './__fixtures__/sandbox-support.js';

// Claude Code, Codex and Pi installed the way users install them — `npm i -g --prefix` into a
// folder under the user's home (the nvm and ~/.npm-global shape) and into one under /tmp, and
// Codex and Pi behind a bin link into a pnpm-style store — found on PATH with no --agent-bin,
// each run through the built command line in the sandbox against a scripted model. The prefix
// is hidden in the sandbox (the home and /tmp are), so each starts only if its whole package,
// dependencies included, is kept readable.

const installed = join(repoRoot, 'tools/agent-clis/installed/node_modules');
const { clis } = JSON.parse(readFileSync(join(repoRoot, 'tools/agent-clis/package.json'), 'utf8')).skeval as {
  clis: Record<string, { package: string; version: string; bin: string }>;
};
const wanted = Object.values(clis).map((cli) => `${cli.package}@${cli.version}`);

const npmWorks = spawnSync('npm', ['--version']).status === 0;
const skipReason = process.env.CI
  ? undefined
  : process.platform !== 'linux' || !bubblewrapWorks()
    ? '(skipped: bubblewrap does not work here: apt-get install -y bubblewrap)'
    : !npmWorks || !existsSync(installed)
      ? '(skipped: npm or the agent CLIs are missing: pnpm agents:install)'
      : undefined;

let fake: FakeProvider;
let root: string;
let userHome: string;
let underHome: string;
let underTmp: string;
let pnpmBin: string;

/** `npm i -g --prefix <prefix>` of the pinned CLIs, from npm's cache where it holds them. */
function npmInstall(prefix: string): void {
  const result = spawnSync(
    'npm',
    ['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', ...wanted],
    { encoding: 'utf8', timeout: 540_000 },
  );
  if (result.status !== 0) throw new Error(`npm install --prefix ${prefix} failed: ${result.stderr.slice(-2000)}`);
}

/**
 * pnpm's layout: each package in `.pnpm/<name>@<version>/node_modules/<name>`, its dependencies
 * linked beside it, and a bin link into the store from a folder on PATH. Built from the
 * installed CLIs by hard links (cp -al), as pnpm links from its content store.
 */
async function pnpmLayout(store: string, bin: string): Promise<void> {
  const virtual = join(store, 'node_modules', '.pnpm');
  const place = async (name: string, version: string) => {
    const at = join(virtual, `${name.replace('/', '+')}@${version}`, 'node_modules', name);
    await mkdir(join(at, '..'), { recursive: true });
    const copied = spawnSync('cp', ['-al', join(installed, name), at]);
    if (copied.status !== 0) throw new Error(`cp -al ${name}: ${copied.stderr}`);
    return at;
  };
  await mkdir(bin, { recursive: true });
  const codex = await place('@openai/codex', clis.codex?.version ?? '');
  const native = await place('@openai/codex-linux-x64', clis.codex?.version ?? '');
  await symlink(native, join(codex, '..', 'codex-linux-x64'));
  await symlink(join(codex, 'bin', 'codex.js'), join(bin, 'codex'));
  // Pi with its dependencies hoisted into the store's own node_modules, as `node-linker=hoisted` leaves them.
  const hoisted = join(store, 'hoisted', 'node_modules');
  await mkdir(join(hoisted, '..'), { recursive: true });
  if (spawnSync('cp', ['-al', installed, hoisted]).status !== 0) throw new Error('cp -al of the installed CLIs failed');
  await symlink(join(hoisted, '@mariozechner/pi-coding-agent/dist/cli.js'), join(bin, 'pi'));
}

beforeAll(async () => {
  if (skipReason) return;
  fake = await startFakeProvider();
  root = await mkdtemp(join(tmpdir(), 'skeval-layouts-'));
  chmodSync(root, 0o755);
  userHome = join(root, 'home');
  underHome = join(userHome, '.npm-global');
  underTmp = await mkdtemp(join('/tmp', 'skeval-prefix-'));
  npmInstall(underHome);
  npmInstall(underTmp);
  pnpmBin = join(userHome, '.local/share/pnpm');
  await pnpmLayout(join(userHome, '.local/share/pnpm/store'), pnpmBin);
  const skill = join(root, 'project', 'hello');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await mkdir(join(root, 'project', '.git'));
  await writeFile(join(skill, 'SKILL.md'), '---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n');
  const evals = [
    { id: 'hi', prompt: 'Say hello.', assertions: [{ kind: 'output', method: 'contains', value: 'Hello' }] },
  ];
  await writeFile(join(skill, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'hello', evals }));
  await writeHomeFile(userHome, '.codex/config.toml', codexConfigToml(fake));
  await writeHomeFile(userHome, '.pi/agent/models.json', piModelsJson(fake, 'Fake'));
}, 1_200_000);
afterAll(async () => {
  if (skipReason) return;
  await fake.close();
  // Two npm prefixes of the three CLIs are about 2 GB: removing them takes a while on a busy machine.
  await rm(root, { recursive: true, force: true });
  await rm(underTmp, { recursive: true, force: true });
}, 300_000);

const models: Record<string, string> = {
  'claude-code': 'claude-sonnet-4-5',
  codex: 'gpt-5',
  pi: 'fake/claude-sonnet-4-5',
};
let runs = 0;

/** `skeval run --agent <agent>` with `bin` first on PATH and no --agent-bin, in the sandbox. */
async function runFrom(bin: string, agent: string) {
  runs += 1;
  const outputDir = join(root, `out-${runs}`);
  fake.respondWith(scriptAgent([{ text: 'Hello from the sandbox.', usage: { input_tokens: 20, output_tokens: 5 } }]));
  const args = [
    binary,
    'run',
    join(root, 'project', 'hello'),
    '--agent',
    agent,
    '--model',
    models[agent] ?? '',
    '--sandbox',
    'bwrap',
    '--output-dir',
    outputDir,
  ];
  const path = [
    bin,
    ...(process.env.PATH ?? '').split(delimiter).filter((folder) => !folder.includes('agent-clis')),
  ].join(delimiter);
  const { code, output } = await runMerged([process.execPath, ...args], {
    cwd: root,
    env: {
      PATH: path,
      HOME: userHome,
      ...agentProviderEnv(fake),
    },
  });
  const skillRuns = join(outputDir, 'hello');
  const runId = onlyRunId(skillRuns);
  const manifest = JSON.parse(readFileSync(join(skillRuns, runId, 'eval-hi', 'context-manifest.json'), 'utf8'));
  return { code, output, manifest };
}

describe.skipIf(skipReason !== undefined)(
  `agent CLIs from the usual install layouts, in the sandbox ${skipReason ?? ''}`,
  () => {
    const layouts = [
      {
        label: 'npm i -g --prefix under the home',
        bin: () => join(underHome, 'bin'),
        agents: ['claude-code', 'codex', 'pi'],
      },
      {
        label: 'npm i -g --prefix under /tmp',
        bin: () => join(underTmp, 'bin'),
        agents: ['claude-code', 'codex', 'pi'],
      },
      { label: 'a bin link into a pnpm-style store under the home', bin: () => pnpmBin, agents: ['codex', 'pi'] },
    ];
    for (const layout of layouts) {
      describe(layout.label, () => {
        it.each(layout.agents)('%s is found on PATH, starts and passes', { timeout: 180_000 }, async (agent) => {
          const ran = await runFrom(layout.bin(), agent);
          expect(ran.code, ran.output).toBe(0);
          expect(ran.manifest.sandbox.kind).toBe('bwrap');
          expect(ran.manifest.agent_version).toBeTruthy();
        });
      });
    }
  },
);
