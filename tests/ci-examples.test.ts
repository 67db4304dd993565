import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parseDocument } from 'yaml';
import { interpolate } from './ci-examples/github-expressions.js';
import { containerEnv, containerOf, runPod } from './ci-examples/run-pod.js';
import { globToRegExp, type JobResult, runWorkflow } from './ci-examples/run-workflow.js';
import { list, type Mapping, mapping, skevalCommands, text } from './ci-examples/yaml-shapes.js';

// The CI examples users copy (docs/ci.md) are run here: the workflow's jobs and the Kubernetes
// Jobs' pods, every skeval command in them through the built CLI, against examples/greeting with
// its scripted agent in place of the real one (named in the skeval.config.json each "checkout"
// gets, as a project's own config names its agent). A command that stops working fails a test.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(repoRoot, 'apps/cli/dist/cli.js');
const skillDir = join(repoRoot, 'examples/greeting');
const scriptedAgent = `node '${join(repoRoot, 'examples/agents/greeting-agent.mjs')}' {prompt_file}`;
const workflowFile = join(repoRoot, 'examples/ci/github-actions.yml');
const k8sFile = join(repoRoot, 'examples/ci/k8s-indexed-job.yaml');

function parseYaml(file: string) {
  const documents = parseAllDocuments(readFileSync(file, 'utf8'));
  if (!Array.isArray(documents)) throw new Error(`${file}: not a YAML stream`);
  const problems = documents.flatMap((document) => [...document.errors, ...document.warnings]);
  return { documents: documents.map((document) => document.toJS()), problems };
}

const workflow = mapping(parseDocument(readFileSync(workflowFile, 'utf8')).toJS(), 'github-actions.yml');
const jobs = mapping(workflow.jobs, 'jobs');
const shardJob = mapping(jobs.shard, 'jobs.shard');
const mergeJob = mapping(jobs.merge, 'jobs.merge');
const stepsOf = (job: Mapping, where: string) => list(job.steps, `${where}.steps`).map((step) => mapping(step, where));
const runScripts = (job: Mapping, where: string) =>
  stepsOf(job, where).flatMap((step) => (step.run === undefined ? [] : [text(step.run, `${where} run`)]));
const shardValues = list(mapping(mapping(shardJob.strategy, 'strategy').matrix, 'matrix').shard, 'matrix.shard');

let root: string;

beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} does not exist: run pnpm build first (pnpm test does)`);
  root = await mkdtemp(join(tmpdir(), 'skeval-ci-examples-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A project's checkout as the test has it: a skeval.config.json naming the agent. */
const checkoutWith = (agentCommand: string) => async (workspace: string) => {
  await writeFile(join(workspace, 'skeval.config.json'), JSON.stringify({ agent: 'command', agentCommand }));
};

const stepNamed = (job: JobResult | undefined, name: RegExp) => {
  const step = job?.steps.find((candidate) => name.test(candidate.name));
  if (!step) throw new Error(`no step matching ${name} in ${job?.job}: ${job?.steps.map((s) => s.name).join(', ')}`);
  return step;
};

describe('examples/ci/github-actions.yml', () => {
  it('parses as one YAML document with no error or warning', () => {
    const { documents, problems } = parseYaml(workflowFile);
    expect(problems).toEqual([]);
    expect(documents).toHaveLength(1);
  });

  it('runs shards 1 to N with --shard i/N, N being the number of matrix entries', () => {
    const total = shardValues.length;
    expect(shardValues).toEqual(Array.from({ length: total }, (_, index) => index + 1));
    const runs = runScripts(shardJob, 'jobs.shard')
      .flatMap(skevalCommands)
      .filter((command) => / skeval run /.test(command));
    expect(runs).toHaveLength(1);
    for (const command of runs) expect(command).toContain(`--shard \${{ matrix.shard }}/${total} `);
    expect(text(shardJob.name, 'jobs.shard.name')).toBe(`shard \${{ matrix.shard }}/${total}`);
  });

  it('merges only after the shards, from the artifacts they upload, and uploads the merged run with its reports', () => {
    expect([mergeJob.needs].flat()).toContain('shard');
    const uses = (job: Mapping, action: string) =>
      stepsOf(job, 'job').filter((step) => typeof step.uses === 'string' && step.uses.startsWith(`${action}@`));
    const [upload] = uses(shardJob, 'actions/upload-artifact');
    const [download] = uses(mergeJob, 'actions/download-artifact');
    expect(upload?.uses).toBe('actions/upload-artifact@v4');
    expect(download?.uses).toBe('actions/download-artifact@v4');
    const pattern = text(mapping(download?.with, 'download.with').pattern, 'pattern');
    const names = shardValues.map((shard) =>
      interpolate(text(mapping(upload?.with, 'upload.with').name, 'name'), {
        contexts: { matrix: { shard } },
        failed: false,
      }),
    );
    expect(names.every((name) => globToRegExp(pattern).test(name))).toBe(true);
    expect(new Set(names).size).toBe(shardValues.length);
    expect(uses(mergeJob, 'actions/upload-artifact').map((step) => step.uses)).toEqual(['actions/upload-artifact@v4']);
    for (const job of [shardJob, mergeJob]) {
      const setupNode = uses(job, 'actions/setup-node')[0];
      expect(Number(text(mapping(setupNode?.with, 'setup-node.with')['node-version'], 'node-version'))).toBe(20);
    }
  });

  it('takes the provider key from a secret by name, only into the step that runs the agent', () => {
    const source = readFileSync(workflowFile, 'utf8');
    const references = [...source.matchAll(/\$\{\{\s*secrets\.(\w+)\s*\}\}/g)].map((match) => match[1]);
    expect(references).toEqual(['ANTHROPIC_API_KEY']);
    const withKey = stepsOf(shardJob, 'jobs.shard').filter((step) => step.env !== undefined);
    expect(withKey.map((step) => Object.keys(mapping(step.env, 'env')))).toEqual([['ANTHROPIC_API_KEY']]);
    expect(String(withKey[0]?.run)).toMatch(/npx skeval run/);
    expect(source).not.toMatch(/sk-[a-z]+-[A-Za-z0-9]/);
  });

  it('runs every skeval command of every job here: the shards, the merge, the gate, JUnit, annotations and the HTML report', async () => {
    const results = await runWorkflow({
      workflow,
      cliPath,
      root: join(root, 'github-pass'),
      checkout: checkoutWith(scriptedAgent),
      envOverrides: { SKILL_DIR: skillDir },
      runId: '4242',
    });
    const shards = results.filter((result) => result.job === 'shard');
    expect(shards.map((shard) => [shard.matrix.shard, shard.status])).toEqual(
      shardValues.map((shard) => [String(shard), 'success']),
    );
    for (const shard of shards) {
      const run = stepNamed(shard, /^Run shard/);
      expect(run, run.stderr).toMatchObject({ ran: true, exitCode: 0 });
      // Only the install steps are left to the real runner.
      expect(shard.steps.filter((step) => !step.ran).map((step) => step.name)).toEqual([
        'npm ci',
        'Install the agent',
        'Install the sandbox',
      ]);
    }
    const merge = results.find((result) => result.job === 'merge');
    const mergeStep = stepNamed(merge, /^Merge the shards/);
    expect(mergeStep, mergeStep.stderr).toMatchObject({ ran: true, exitCode: 0 });
    expect(mergeStep.stderr).toMatch(/merged 3 shards of greeting: 4 cases, 8 case runs/);
    expect(mergeStep.stderr).toMatch(/gate min-delta passed/);
    // The without_skill arm fails some checks: the GitHub reporter notes them (a baseline failing
    // is no error of the skill's) and fills the summary.
    expect(mergeStep.stdout).toMatch(/^::notice title=failed%3A greeting › .+ › without_skill run 1::/m);
    expect(mergeStep.stdout).not.toMatch(/^::error title=.+ › without_skill /m);
    expect(merge?.summary).toMatch(/Skeval results/);
    expect(stepNamed(merge, /^Write the HTML report/)).toMatchObject({ ran: true, exitCode: 0 });
    expect(merge?.status).toBe('success');

    const published = join(root, 'github-pass/artifacts/skeval-report');
    const benchmark = JSON.parse(await readFile(join(published, 'run-4242/benchmark.json'), 'utf8'));
    expect(benchmark.runs).toHaveLength(8);
    const junit = await readFile(join(published, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="greeting" tests="24" failures="4"/);
    expect(await readFile(join(published, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    expect((await readdir(join(root, 'github-pass/artifacts'))).sort()).toEqual([
      'skeval-report',
      'skeval-shard-1',
      'skeval-shard-2',
      'skeval-shard-3',
    ]);
  }, 120_000);

  it('fails the merge job when the merged run misses the gate, which the shards leave to it, and still publishes the report', async () => {
    const results = await runWorkflow({
      workflow,
      cliPath,
      root: join(root, 'github-gate'),
      checkout: checkoutWith(scriptedAgent),
      envOverrides: { SKILL_DIR: skillDir, MIN_DELTA: '60' },
    });
    const shards = results.filter((result) => result.job === 'shard');
    expect(shards.map((shard) => shard.status)).toEqual(shardValues.map(() => 'success'));
    // A shard holds part of the cases: it leaves the delta gate to the merge and says so.
    for (const shard of shards) expect(stepNamed(shard, /^Run shard/).stderr).not.toMatch(/gate min-delta/);
    expect(
      shards.some((shard) => /checked on the whole run by skeval merge/.test(stepNamed(shard, /^Run shard/).stderr)),
    ).toBe(true);
    const merge = results.find((result) => result.job === 'merge');
    const mergeStep = stepNamed(merge, /^Merge the shards/);
    expect(mergeStep.exitCode, mergeStep.stderr).toBe(1);
    expect(mergeStep.stderr).toMatch(/gate min-delta failed: greeting: the lower end of the delta's 95% interval/);
    expect(merge?.status).toBe('failure');
    expect(stepNamed(merge, /^Write the HTML report/)).toMatchObject({ ran: true, exitCode: 0 });
    expect(stepNamed(merge, /^Upload the merged run/)).toMatchObject({ ran: true, exitCode: 0 });
    expect(existsSync(join(root, 'github-gate/artifacts/skeval-report/report.html'))).toBe(true);
  }, 120_000);

  it('fails a shard job whose agent cannot run (exit 3), cancels the other shards and runs no merge', async () => {
    const results = await runWorkflow({
      workflow,
      cliPath,
      root: join(root, 'github-broken'),
      checkout: checkoutWith(`node -e 'process.exit(7)'`),
      envOverrides: { SKILL_DIR: skillDir },
    });
    const [first, ...rest] = results.filter((result) => result.job === 'shard');
    const run = stepNamed(first, /^Run shard/);
    expect(run.exitCode, run.stderr).toBe(3);
    expect(first?.status).toBe('failure');
    expect(stepNamed(first, /^Upload the shard/)).toMatchObject({ ran: true, exitCode: 0 });
    expect(rest.map((shard) => shard.status)).toEqual(rest.map(() => 'cancelled'));
    expect(results.find((result) => result.job === 'merge')?.status).toBe('skipped');
  }, 120_000);
});

describe('examples/ci/k8s-indexed-job.yaml', () => {
  const { documents, problems } = parseYaml(k8sFile);
  const [claim, shards, merge] = documents.map((document, index) => mapping(document, `document ${index + 1}`));
  const shardsContainer = containerOf(shards ?? {}, 'skeval-shards');
  const mergeContainer = containerOf(merge ?? {}, 'skeval-merge');
  const shardsSpec = mapping(shards?.spec, 'skeval-shards.spec');

  it('parses as a volume claim, an Indexed Job of shards and a merge Job, with no error or warning', () => {
    expect(problems).toEqual([]);
    expect(documents.map((document) => `${mapping(document, 'document').kind}`)).toEqual([
      'PersistentVolumeClaim',
      'Job',
      'Job',
    ]);
    expect(shardsSpec.completionMode).toBe('Indexed');
  });

  it('runs as many pods as SKEVAL_SHARD_TOTAL says there are shards, each on a ReadWriteMany volume mounted at RUNS_DIR', () => {
    const env = containerEnv(shardsContainer, 'skeval-shards');
    expect(shardsSpec.completions).toBe(Number(env.SKEVAL_SHARD_TOTAL));
    expect(Number(shardsSpec.parallelism)).toBeLessThanOrEqual(Number(shardsSpec.completions));
    expect(list(mapping(claim?.spec, 'claim.spec').accessModes, 'accessModes')).toContain('ReadWriteMany');
    const claimName = mapping(claim?.metadata, 'claim.metadata').name;
    for (const [job, container] of [
      [shards, shardsContainer],
      [merge, mergeContainer],
    ] as const) {
      const pod = mapping(mapping(mapping(job?.spec, 'spec').template, 'template').spec, 'pod spec');
      expect(pod.restartPolicy).toBe('Never');
      const [volume] = list(pod.volumes, 'volumes').map((item) => mapping(item, 'volume'));
      expect(mapping(volume?.persistentVolumeClaim, 'persistentVolumeClaim').claimName).toBe(claimName);
      const [mount] = list(container.volumeMounts, 'volumeMounts').map((item) => mapping(item, 'volumeMount'));
      expect(mount?.name).toBe(volume?.name);
      expect(containerEnv(container, 'container').RUNS_DIR).toBe(mount?.mountPath);
      // Scripts reach the volume through RUNS_DIR, which the test points elsewhere.
      expect(JSON.stringify(container.args)).not.toContain(String(mount?.mountPath));
    }
  });

  it('picks the documents of each step by label: the claim and the shards first, then the merge', () => {
    const step = (document: Mapping | undefined) =>
      mapping(mapping(document?.metadata, 'metadata').labels, 'labels')['skeval-step'];
    expect([claim, shards, merge].map(step)).toEqual(['shards', 'shards', 'merge']);
    expect(readFileSync(k8sFile, 'utf8')).toMatch(/kubectl apply -f k8s-indexed-job\.yaml -l skeval-step=shards/);
  });

  it('runs every pod here, JOB_COMPLETION_INDEX 0 to N-1 (one of them twice, as a retry), then the merge Job twice', async () => {
    const workingDir = join(root, 'k8s/work');
    const runsDir = join(root, 'k8s/runs');
    await mkdir(workingDir, { recursive: true });
    await mkdir(runsDir, { recursive: true });
    await checkoutWith(scriptedAgent)(workingDir);
    const total = Number(shardsSpec.completions);
    const indexes = [...Array.from({ length: total }, (_, index) => index), 0];
    for (const index of indexes) {
      const pod = runPod({
        job: shards ?? {},
        where: 'skeval-shards',
        index,
        cliPath,
        workingDir,
        envOverrides: { SKILL_DIR: skillDir, RUNS_DIR: runsDir },
      });
      expect(pod.exitCode, `pod ${index}: ${pod.stderr}`).toBe(0);
      // One run folder per shard, the retried one included, holding the shard JOB_COMPLETION_INDEX picked.
      const runs = (await readdir(join(runsDir, `shard-${index}/greeting`))).filter((name) => name !== 'latest');
      expect(runs).toHaveLength(1);
      const manifest = JSON.parse(
        await readFile(join(runsDir, `shard-${index}/greeting/${runs[0]}/shard.json`), 'utf8'),
      );
      expect(manifest.shard).toEqual({ index: index + 1, total });
    }
    expect((await readdir(runsDir)).sort()).toEqual(indexes.slice(0, total).map((index) => `shard-${index}`));
    for (const attempt of [1, 2]) {
      const pod = runPod({
        job: merge ?? {},
        where: 'skeval-merge',
        cliPath,
        workingDir,
        envOverrides: { RUNS_DIR: runsDir },
      });
      expect(pod.exitCode, `merge ${attempt}: ${pod.stderr}`).toBe(0);
      expect(pod.stderr).toMatch(/merged 3 shards of greeting: 4 cases, 8 case runs/);
      expect(pod.stdout).toMatch(/greeting: benchmark/);
    }
    const benchmark = JSON.parse(await readFile(join(runsDir, 'merged/run/benchmark.json'), 'utf8'));
    expect(benchmark.runs).toHaveLength(8);
    expect(await readFile(join(runsDir, 'merged/junit.xml'), 'utf8')).toMatch(/<testsuite name="greeting" tests="24"/);
    expect(existsSync(join(runsDir, 'merged/report.html'))).toBe(true);
  }, 120_000);
});
