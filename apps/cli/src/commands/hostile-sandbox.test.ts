import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binary, runMerged } from './__fixtures__/run-cli.js';
import { asOwner, bubblewrapWorks, onlyRunId } from './__fixtures__/sandbox-support.js';

// An agent that tries to break out rather than do its task (__fixtures__/escape-agent.mjs), run
// through the built command line as root and as an ordinary user, with Skeval's TMPDIR under
// /tmp and elsewhere, one case run at a time and four: it holds no capability, every mount,
// unmount, pivot_root and unshare fails, nothing it writes reaches the host, it sees no other
// case run, no grader snapshot, no run folder, no cache and no host socket, and what it leaves
// stays within the limits of outputs/. Each verdict stands.

const agentSource = new URL('./__fixtures__/escape-agent.mjs', import.meta.url).pathname;
const nobody = 65534;

const skipReason =
  process.platform !== 'linux'
    ? 'skipped: bubblewrap runs on Linux only'
    : !bubblewrapWorks() && !process.env.CI
      ? 'skipped: bubblewrap does not work here (apt-get install -y bubblewrap)'
      : undefined;
const isRoot = process.getuid?.() === 0;
const asUser = isRoot ? 'root' : 'the user running the tests';

interface Fixture {
  root: string;
  project: string;
  userHome: string;
  skevalTmp: string;
  outputDir: string;
  cacheDir: string;
  target: string;
  agent: string;
  socket: string;
  abstract: string;
  nonce: string;
  servers: Server[];
}

const fixtures: Fixture[] = [];
afterAll(async () => {
  for (const fixture of fixtures) {
    for (const server of fixture.servers) server.close();
    await rm(fixture.root, { recursive: true, force: true });
    await rm(`/skeval-hostile-${fixture.nonce}`, { force: true });
  }
});

const caseIds = ['a', 'b', 'c', 'd'];

/** A socket server on the host that answers whoever reaches it. */
async function listen(path: string, servers: Server[]): Promise<void> {
  const server = createServer((socket) => socket.end('host socket'));
  server.listen(path);
  await once(server, 'listening');
  servers.push(server);
}

/**
 * A world-readable project (its skill, a failing custom grader, git), a user home with a key,
 * the agent in a `node_modules` of its own beside a host socket, and the folders Skeval writes
 * owned by `owner`; the output folder does not exist yet.
 */
async function makeFixture(base: string, owner: number | undefined, cases: readonly string[]): Promise<Fixture> {
  const root = await mkdtemp(join(base, 'skeval-hostile-sandbox-'));
  chmodSync(root, 0o755);
  const project = join(root, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  await mkdir(join(project, '.skeval', 'graders'), { recursive: true });
  await writeFile(
    join(project, '.skeval', 'graders', 'verdict.mjs'),
    [
      'export default {',
      "  [Symbol.for('skeval.script-grader')]: true,",
      "  description: 'The right answer.',",
      "  handler: ({ output }) => ({ score: output.includes('THE-RIGHT-ANSWER') ? 1 : 0, assertions: [] }),",
      '};',
    ].join('\n'),
  );
  await mkdir(join(project, 'greeting', 'evals'), { recursive: true });
  await writeFile(join(project, 'greeting', 'SKILL.md'), '---\nname: greeting\ndescription: Greets.\n---\n');
  const evals = cases.map((id) => ({
    id,
    prompt: `CASE-${id}: write a greeting`,
    assertions: [{ type: 'verdict' }, { kind: 'output', method: 'contains', value: 'capabilities' }],
  }));
  await writeFile(join(project, 'greeting', 'evals', 'evals.json'), JSON.stringify({ skill_name: 'greeting', evals }));
  const userHome = join(root, 'home');
  await mkdir(join(userHome, '.ssh'), { recursive: true });
  await writeFile(join(userHome, '.ssh', 'id_rsa'), 'PRIVATE KEY\n', { mode: 0o644 });
  const agentModules = join(root, 'agent', 'node_modules');
  await mkdir(join(agentModules, '.bin'), { recursive: true });
  const agent = join(agentModules, '.bin', 'escape-agent');
  await copyFile(agentSource, agent);
  chmodSync(agent, 0o755);
  const target = join(root, 'target.txt');
  await writeFile(target, 'untouched\n');
  const owned = [join(root, 'tmp'), join(root, 'runs'), join(root, 'cache')];
  for (const folder of owned) {
    await mkdir(folder);
    if (owner !== undefined) chownSync(folder, owner, owner);
  }
  const nonce = randomUUID().slice(0, 8);
  const servers: Server[] = [];
  // A socket in a folder the agent sees (its own program's), and one in the abstract namespace.
  const socket = join(agentModules, 'host.sock');
  await listen(socket, servers);
  chmodSync(socket, 0o777);
  const abstract = `skeval-hostile-${nonce}`;
  await listen(`\0${abstract}`, servers);
  const fixture: Fixture = {
    root,
    project,
    userHome,
    skevalTmp: join(root, 'tmp'),
    outputDir: join(root, 'runs', 'out'),
    cacheDir: join(root, 'cache'),
    target,
    agent,
    socket,
    abstract,
    nonce,
    servers,
  };
  fixtures.push(fixture);
  return fixture;
}

/** What the agent printed: what each attack got. */
interface Report {
  capabilities: { effective: string; bounding: string };
  mount: Record<string, unknown>;
  hostWrites: unknown;
  key: unknown;
  others: unknown;
  sockets: { visible: string; abstract: string; run: unknown };
}

interface CaseRun {
  id: string;
  report: Report;
  grading: { assertion_results: Array<{ status: string }> };
  manifest: {
    sandbox: unknown;
    outputs_skipped?: Array<{ path: string; reason: string }>;
    outputs_skipped_unnamed?: number;
  };
  timing: { executor_start: string; duration_ms: number };
}

interface Run {
  code: number | null;
  output: string;
  caseRuns: CaseRun[];
}

/**
 * Skeval and the agent (`env node`) run on this Node: `owner` must reach it, or every case run
 * errors for a reason that is not the sandbox's (a root-only 0700 folder holding Node).
 */
function expectNodeRunsAs(owner: number): void {
  const probe = spawnSync(
    'setpriv',
    [`--reuid=${owner}`, `--regid=${owner}`, '--clear-groups', '/bin/sh', '-c', '"$0" --version', process.execPath],
    { env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' },
  );
  if (probe.status !== 0)
    throw new Error(
      `uid ${owner} cannot run the Node on PATH (${process.execPath}): ${probe.stderr.trim()}. ` +
        'Make every folder above it searchable (chmod 755), as .ci/run does for its Node 24.',
    );
}

/** `skeval run` on the fixture, as `owner` when given (setpriv drops root's privileges first). */
async function runSkeval(
  fixture: Fixture,
  options: { owner?: number; concurrency: number; network: 'on' | 'none'; waitMs: number; flood?: number },
): Promise<Run> {
  const hostile = {
    HOSTILE_USER_HOME: fixture.userHome,
    HOSTILE_SKEVAL_TMP: fixture.skevalTmp,
    HOSTILE_OUTPUT_DIR: fixture.outputDir,
    HOSTILE_CACHE_DIR: fixture.cacheDir,
    HOSTILE_TARGET: fixture.target,
    HOSTILE_SOCKET: fixture.socket,
    HOSTILE_ABSTRACT: fixture.abstract,
    HOSTILE_NONCE: fixture.nonce,
    HOSTILE_WAIT_MS: String(options.waitMs),
    ...(options.flood ? { HOSTILE_FLOOD: String(options.flood) } : {}),
  };
  const args = [
    binary,
    'run',
    'greeting',
    '--agent',
    'command',
    '--agent-command',
    // A file the command names stays readable: a host file in plain sight, to overwrite.
    `${fixture.agent} {prompt_file} ${fixture.target}`,
    '--output-dir',
    fixture.outputDir,
    '--concurrency',
    String(options.concurrency),
    '--network',
    options.network,
    '--sandbox',
    'bwrap',
    ...Object.keys(hostile).flatMap((name) => ['--pass-env', name]),
  ];
  if (options.owner !== undefined) expectNodeRunsAs(options.owner);
  const { code, output } = await runMerged(asOwner([process.execPath, ...args], options.owner), {
    cwd: fixture.project,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: fixture.userHome,
      TMPDIR: fixture.skevalTmp,
      SKEVAL_CACHE_DIR: fixture.cacheDir,
      ...hostile,
    },
  });
  const skillDir = join(fixture.outputDir, 'greeting');
  const runId = onlyRunId(skillDir);
  const read = (id: string, file: string) => {
    const text = readFileSync(join(skillDir, runId, `eval-${id}`, file), 'utf8');
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`eval-${id}/${file} is not JSON: ${text.slice(0, 200)}\n${output.slice(-2000)}`);
    }
  };
  const ids = readdirSync(join(skillDir, runId))
    .filter((name) => name.startsWith('eval-'))
    .map((name) => name.slice('eval-'.length));
  const caseRuns = ids.map(
    (id): CaseRun => ({
      id,
      report: read(id, 'assistant.md'),
      grading: read(id, 'grading.json'),
      manifest: read(id, 'context-manifest.json'),
      timing: read(id, 'timing.json'),
    }),
  );
  return { code, output, caseRuns };
}

/** Nothing of this: absent, or an empty listing. */
const nothing = expect.toSatisfy(
  (found: { ok: boolean; detail: unknown }) =>
    (!found.ok && found.detail === 'ENOENT') || (found.ok && Array.isArray(found.detail) && found.detail.length === 0),
  'absent or empty',
);

/** What holds for every case run of a run, whatever the network. */
function expectContained(run: Run, fixture: Fixture, cases: readonly string[]) {
  expect({ code: run.code, caseRuns: run.caseRuns.map((caseRun) => caseRun.id).sort() }).toEqual({
    code: 1,
    caseRuns: [...cases],
  });
  for (const { id, report, grading, manifest } of run.caseRuns) {
    expect({ id, effective: report.capabilities.effective }).toEqual({ id, effective: '0000000000000000' });
    for (const [attack, got] of Object.entries(report.mount)) {
      // Each program ran and failed: a missing program would prove nothing.
      expect({ id, attack, got }).toEqual({
        id,
        attack,
        got: {
          started: true,
          status: expect.toSatisfy((status) => status !== 0, 'a failure'),
          detail: expect.any(String),
        },
      });
    }
    expect({ id, writes: report.hostWrites }).toEqual({
      id,
      writes: {
        target: { ok: false, detail: expect.stringMatching(/EROFS|EACCES|ENOENT/) },
        root: { ok: false, detail: expect.stringMatching(/EROFS|EACCES/) },
      },
    });
    expect({ id, key: report.key }).toEqual({ id, key: { ok: false, detail: 'ENOENT' } });
    expect({ id, others: report.others }).toEqual({
      id,
      others: {
        inSkevalTmp: [],
        inTmp: [],
        inVarTmp: [],
        prompts: [],
        graderRewrites: [],
        runFiles: nothing,
        cache: nothing,
      },
    });
    // The failing custom grader still fails; the response is still graded.
    expect({ id, verdicts: grading.assertion_results.map((row) => row.status) }).toEqual({
      id,
      verdicts: ['fail', 'pass'],
    });
    expect(manifest.sandbox).toMatchObject({
      kind: 'bwrap',
      capabilities: 'none',
      user_namespace: expect.stringMatching(/^(own|own-nestable|host)$/),
      hidden: expect.arrayContaining([realpathSync(fixture.skevalTmp), join(fixture.outputDir, 'greeting')]),
    });
  }
  expect(readFileSync(fixture.target, 'utf8')).toBe('untouched\n');
  expect(existsSync(`/skeval-hostile-${fixture.nonce}`)).toBe(false);
  // Every case run's folders are gone: the agents found none of them, and none is left.
  expect(readdirSync(fixture.skevalTmp)).toEqual([]);
}

/** At four at a time the case runs overlapped (so each could have seen the others); at one they did not. */
function expectOverlap(run: Run, concurrency: number) {
  const spans = run.caseRuns.map(({ timing }) => {
    const start = Date.parse(timing.executor_start);
    return { start, end: start + timing.duration_ms };
  });
  const overlapped = Math.max(...spans.map((span) => span.start)) < Math.min(...spans.map((span) => span.end));
  expect({ concurrency, overlapped }).toEqual({ concurrency, overlapped: concurrency > 1 });
}

const users = [
  { label: asUser, owner: undefined, skip: undefined },
  {
    label: 'an ordinary user (nobody, through setpriv)',
    owner: nobody,
    skip: isRoot ? undefined : 'skipped unless root: only root can run it as nobody',
  },
] as const;
const temporaryBases = [
  { label: 'TMPDIR under /tmp', base: '/tmp' },
  { label: 'TMPDIR under /var/tmp', base: '/var/tmp' },
] as const;

describe.skipIf(skipReason !== undefined)(`an agent trying to escape the sandbox ${skipReason ?? ''}`, () => {
  for (const user of users)
    for (const { label, base } of temporaryBases)
      for (const concurrency of [1, 4])
        it.skipIf(user.skip !== undefined)(
          `as ${user.label}, ${label}, ${concurrency} at a time, --network none: gets nothing ${user.skip ?? ''}`,
          { timeout: 120_000 },
          async () => {
            const fixture = await makeFixture(base, user.owner, caseIds);
            const run = await runSkeval(fixture, {
              ...(user.owner === undefined ? {} : { owner: user.owner }),
              concurrency,
              network: 'none',
              waitMs: concurrency > 1 ? 2000 : 0,
            });
            expectContained(run, fixture, caseIds);
            expectOverlap(run, concurrency);
            for (const { id, report } of run.caseRuns) {
              expect({ id, sockets: report.sockets }).toEqual({
                id,
                sockets: { visible: 'ECONNREFUSED', abstract: 'ECONNREFUSED', run: nothing },
              });
            }
          },
        );

  for (const user of users)
    it.skipIf(user.skip !== undefined)(
      `as ${user.label}, --network on: the host sockets answer (the attack is real), the rest holds ${user.skip ?? ''}`,
      { timeout: 120_000 },
      async () => {
        const fixture = await makeFixture('/var/tmp', user.owner, caseIds);
        const run = await runSkeval(fixture, {
          ...(user.owner === undefined ? {} : { owner: user.owner }),
          concurrency: 4,
          network: 'on',
          waitMs: 2000,
        });
        expectContained(run, fixture, caseIds);
        for (const { id, report } of run.caseRuns) {
          expect({ id, visible: report.sockets.visible, abstract: report.sockets.abstract }).toEqual({
            id,
            visible: 'answered: host socket',
            abstract: 'answered: host socket',
          });
        }
      },
    );

  it(`as ${asUser}: five 60 MiB sparse files and 10,050 small ones stay within the limits of outputs/, each named or counted`, {
    timeout: 180_000,
  }, async () => {
    const fixture = await makeFixture('/var/tmp', undefined, ['a']);
    const run = await runSkeval(fixture, { concurrency: 1, network: 'none', waitMs: 0, flood: 10_050 });
    expectContained(run, fixture, ['a']);
    const [caseRun] = run.caseRuns;
    const skipped = caseRun?.manifest.outputs_skipped ?? [];
    expect(skipped.filter((entry) => /sparse/.test(entry.reason)).map((entry) => entry.path)).toEqual(
      [1, 2, 3, 4, 5].map((at) => `sparse-${at}.bin`),
    );
    // 10,056 files in the workspace (10,050, five sparse, the installed SKILL.md): its listing holds
    // 10,000, and the 56 past it are counted, not named, and not copied.
    expect(caseRun?.manifest.outputs_skipped_unnamed).toBe(56);
    const runDir = join(fixture.outputDir, 'greeting', readdirSync(join(fixture.outputDir, 'greeting'))[0] ?? '');
    const outputs = join(runDir, 'eval-a', 'outputs');
    expect(readdirSync(outputs).sort()).toEqual(['flood']);
    const copied = readdirSync(join(outputs, 'flood'));
    // What was listed is copied, but for the sparse files (and the installed skill, if listed: never an output).
    expect([9_994, 9_995]).toContain(copied.length);
    const bytes = copied.reduce((sum, name) => sum + statSync(join(outputs, 'flood', name)).size, 0);
    expect(bytes).toBeLessThan(64 * 1024);
  });
});
