import { once } from 'node:events';
import { chmodSync, chownSync, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentStep,
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
import { asOwner, bubblewrapWorks, onlyRunId } from './__fixtures__/sandbox-support.js';

// The real Claude Code, Codex and Pi through the built command line, in the sandbox with the
// default --network model, as root and as an ordinary user: a scripted model asks each to fetch a
// second service on 127.0.0.1 that serves a marker. The marker never reaches the model, the case
// still ends ok, and the attempt is in context-manifest.json; --allow-host lets it through;
// --network none cuts the model too, and the error says so.

const bin = (name: string) => join(repoRoot, 'tools/agent-clis/installed/node_modules/.bin', name);
const nobody = 65534;
const isRoot = process.getuid?.() === 0;

const missing = ['claude', 'codex', 'pi'].filter((name) => !existsSync(bin(name)));
const skipReason = process.env.CI
  ? undefined
  : process.platform !== 'linux' || !bubblewrapWorks()
    ? '(skipped: bubblewrap does not work here: apt-get install -y bubblewrap)'
    : missing.length
      ? `(skipped: ${missing.join(', ')} not installed: pnpm agents:install)`
      : undefined;

let fake: FakeProvider;
let service: Server;
let servicePort: number;
let root: string;
const marker = `NETWORK-MARKER-${process.pid}`;

beforeAll(async () => {
  if (skipReason) return;
  fake = await startFakeProvider();
  service = createServer((_, response) => response.end(`${marker}\n`));
  service.listen(0, '127.0.0.1');
  await once(service, 'listening');
  servicePort = (service.address() as AddressInfo).port;
  root = await mkdtemp(join(tmpdir(), 'skeval-network-'));
  chmodSync(root, 0o755);
  const skill = join(root, 'project', 'fetcher');
  await mkdir(join(skill, 'evals'), { recursive: true });
  await mkdir(join(root, 'project', '.git'));
  await writeFile(join(skill, 'SKILL.md'), '---\nname: fetcher\ndescription: Fetches a page.\n---\nFetch it.\n');
  const evals = [
    { id: 'fetch', prompt: 'Fetch the page.', assertions: [{ kind: 'output', method: 'contains', value: 'Done' }] },
  ];
  await writeFile(join(skill, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'fetcher', evals }));
});
afterAll(async () => {
  if (skipReason) return;
  await fake.close();
  service.close();
  await rm(root, { recursive: true, force: true });
});

interface Agent {
  name: 'claude-code' | 'codex' | 'pi';
  binary: string;
  model: string;
  /** The shell tool call that fetches the service. */
  fetch: (url: string) => AgentStep;
  /** The agent's configuration in the user's home, pointing it at the fake provider. */
  configure(home: string): Promise<void>;
}

const agents: Agent[] = [
  {
    name: 'claude-code',
    binary: 'claude',
    model: 'claude-sonnet-4-5',
    fetch: (url) => ({ toolUse: { name: 'Bash', input: { command: `curl -s ${url}` } } }),
    configure: async () => undefined,
  },
  {
    name: 'codex',
    binary: 'codex',
    model: 'gpt-5',
    fetch: (url) => ({ toolUse: { name: 'exec_command', input: { cmd: `curl -s ${url}` } } }),
    configure: (home) => writeHomeFile(home, '.codex/config.toml', codexConfigToml(fake)),
  },
  {
    name: 'pi',
    binary: 'pi',
    model: 'fake/claude-sonnet-4-5',
    fetch: (url) => ({ toolUse: { name: 'bash', input: { command: `curl -s ${url}` } } }),
    configure: (home) => writeHomeFile(home, '.pi/agent/models.json', piModelsJson(fake)),
  },
];

interface Ran {
  code: number | null;
  output: string;
  manifest: {
    sandbox: { network: string; allowed_hosts?: string[]; blocked_connections?: Array<Record<string, unknown>> };
  };
  grading: { agent_error?: { message: string } };
}

let runs = 0;

/** `skeval run` of the case with `agent`, as `owner` when given, with these network flags. */
async function runSkeval(agent: Agent, owner: number | undefined, flags: string[]): Promise<Ran> {
  runs += 1;
  const base = join(root, `run-${runs}`);
  const home = join(base, 'home');
  const skevalTmp = join(base, 'tmp');
  const outputDir = join(base, 'out');
  await mkdir(home, { recursive: true });
  await mkdir(skevalTmp);
  await mkdir(outputDir);
  chmodSync(base, 0o755);
  await agent.configure(home);
  if (owner !== undefined) for (const folder of [skevalTmp, outputDir]) chownSync(folder, owner, owner);
  fake.requests.length = 0;
  const url = `http://127.0.0.1:${servicePort}/`;
  fake.respondWith(
    scriptAgent([agent.fetch(url), { text: 'Done: fetched it.', usage: { input_tokens: 50, output_tokens: 5 } }]),
  );
  const args = [
    binary,
    'run',
    join(root, 'project', 'fetcher'),
    '--agent',
    agent.name,
    '--agent-bin',
    bin(agent.binary),
    '--model',
    agent.model,
    '--sandbox',
    'bwrap',
    '--output-dir',
    outputDir,
    '--timeout',
    '90',
    ...flags,
  ];
  const { code, output } = await runMerged(asOwner([process.execPath, ...args], owner), {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      TMPDIR: skevalTmp,
      SKEVAL_CACHE_DIR: join(skevalTmp, 'cache'),
      ...agentProviderEnv(fake),
    },
  });
  const skillRuns = join(outputDir, 'fetcher');
  const runId = onlyRunId(skillRuns);
  const read = (file: string) => JSON.parse(readFileSync(join(skillRuns, runId, 'eval-fetch', file), 'utf8'));
  return { code, output, manifest: read('context-manifest.json'), grading: read('grading.json') };
}

const users = [
  { label: isRoot ? 'root' : 'the user running the tests', owner: undefined },
  ...(isRoot ? [{ label: 'an ordinary user (setpriv)', owner: nobody }] : []),
];

describe.skipIf(skipReason !== undefined)(`the real agent CLIs behind the allowlist ${skipReason ?? ''}`, () => {
  describe.each(users)('as $label', ({ owner }) => {
    describe.each(agents)('$name', (agent) => {
      it('with the default --network model: reaches its model, not the other service, and the attempt is recorded', {
        timeout: 180_000,
      }, async () => {
        const ran = await runSkeval(agent, owner, []);
        expect(ran.grading.agent_error, ran.output).toBeUndefined();
        expect(ran.code, ran.output).toBe(0);
        expect(fake.requests.length).toBeGreaterThan(1);
        expect(fake.bodiesContain(marker)).toBe(false);
        expect(fake.bodiesContain(`blocked 127.0.0.1:${servicePort}`)).toBe(true);
        expect(ran.manifest.sandbox.network).toBe('model');
        // Codex also tries github.com and chatgpt.com at start: each is refused and recorded too.
        expect(ran.manifest.sandbox.blocked_connections).toEqual(
          expect.arrayContaining([
            expect.objectContaining({
              host: '127.0.0.1',
              port: servicePort,
              tool_call: expect.stringContaining('curl'),
            }),
          ]),
        );
        const report = ran.output.replace(/\n\s+/g, ' ');
        expect(report).toContain('fetch: the sandbox blocked ');
        expect(report).toMatch(new RegExp(`127\\.0\\.0\\.1:${servicePort} \\(#\\d+ \\S+ .*curl`));
      });

      it('with --allow-host 127.0.0.1:<port>: the service answers', { timeout: 180_000 }, async () => {
        const ran = await runSkeval(agent, owner, ['--allow-host', `127.0.0.1:${servicePort}`]);
        expect(ran.code, ran.output).toBe(0);
        expect(fake.bodiesContain(marker)).toBe(true);
        expect(ran.manifest.sandbox.allowed_hosts).toContain(`127.0.0.1:${servicePort}`);
        expect(ran.manifest.sandbox.blocked_connections ?? []).not.toContainEqual(
          expect.objectContaining({ host: '127.0.0.1', port: servicePort }),
        );
      });

      it('with --network none: the model is out of reach too, and the error says so', {
        timeout: 180_000,
      }, async () => {
        const ran = await runSkeval(agent, owner, ['--network', 'none']);
        expect(ran.code, ran.output).not.toBe(0);
        expect(fake.requests).toHaveLength(0);
        expect(ran.grading.agent_error?.message).toContain('--network none: the agent cannot reach its model at');
      });
    });
  });
});
