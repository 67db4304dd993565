import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { list, mapping, strings, text, withBuiltCli } from './ci-examples/yaml-shapes.js';

// examples/ci/gitlab-ci.yml run here as GitLab's shell runner runs it: each job's before_script
// and script lines in one bash that stops at the first failing line, `parallel: N` as N copies of
// the shard job with CI_NODE_INDEX and CI_NODE_TOTAL set, each copy's artifacts brought into the
// merge job's folder (`needs: … artifacts: true`). Installs (`npm …`) are left to the real runner;
// every skeval command runs through the built CLI against examples/greeting with its scripted agent.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const cliPath = join(repoRoot, 'apps/cli/dist/cli.js');
const agentCommand = `node '${join(repoRoot, 'examples/agents/greeting-agent.mjs')}' {prompt_file}`;
const pipeline = mapping(
  parseDocument(readFileSync(join(repoRoot, 'examples/ci/gitlab-ci.yml'), 'utf8')).toJS(),
  'gitlab-ci.yml',
);
const defaults = mapping(pipeline.default, 'default');
const shardJob = mapping(pipeline.shard, 'shard');
const mergeJob = mapping(pipeline.merge, 'merge');

let root: string;
beforeAll(async () => {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} does not exist: run pnpm build first (pnpm test does)`);
  root = await mkdtemp(join(tmpdir(), 'skeval-ci-gitlab-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** One job in a fresh checkout (a skeval.config.json naming the agent), as the shell runner runs it. */
async function runJob(job: Record<string, unknown>, folder: string, env: Record<string, string>) {
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'skeval.config.json'), JSON.stringify({ agent: 'command', agentCommand }));
  const lines = [...list(defaults.before_script, 'default.before_script'), ...list(job.script, 'script')]
    .map((line, index) => text(line, `script[${index}]`))
    .filter((line) => !/^npm /.test(line));
  const script = ['set -eo pipefail', ...lines].map((line) => withBuiltCli(line, cliPath)).join('\n');
  const variables = { ...strings(pipeline.variables, 'variables'), SKILL_DIR: join(repoRoot, 'examples/greeting') };
  const result = spawnSync('bash', ['-c', script], {
    cwd: folder,
    env: { ...process.env, ...variables, ...env, CI: 'true', GITLAB_CI: 'true' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { exitCode: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('examples/ci/gitlab-ci.yml', () => {
  it('runs parallel shards and a merge that holds the whole run to the gate and writes JUnit and the HTML report', async () => {
    const total = Number(text(shardJob.parallel, 'shard.parallel'));
    expect(total).toBe(3);
    const mergeFolder = join(root, 'merge');
    for (let index = 1; index <= total; index += 1) {
      const folder = join(root, `shard-${index}`);
      const shard = await runJob(shardJob, folder, { CI_NODE_INDEX: String(index), CI_NODE_TOTAL: String(total) });
      expect(shard.exitCode, shard.stderr).toBe(0);
      for (const path of list(mapping(shardJob.artifacts, 'shard.artifacts').paths, 'paths')) {
        const artifact = text(path, 'artifacts.paths');
        await cp(join(folder, artifact), join(mergeFolder, artifact), { recursive: true });
      }
    }
    expect(list(mergeJob.needs, 'merge.needs')).toEqual([{ job: 'shard', artifacts: true }]);
    const merge = await runJob(mergeJob, mergeFolder, { CI_PIPELINE_ID: '77' });
    expect(merge.exitCode, merge.stderr).toBe(0);
    expect(merge.stderr).toMatch(/merged 3 shards of greeting: 4 cases, 8 case runs/);
    expect(merge.stderr).toMatch(/gate min-delta passed/);
    const published = join(mergeFolder, 'skeval-merged');
    const benchmark = JSON.parse(await readFile(join(published, 'run-77/benchmark.json'), 'utf8'));
    expect(benchmark.runs).toHaveLength(8);
    const junitReport = text(mapping(mapping(mergeJob.artifacts, 'artifacts').reports, 'reports').junit, 'junit');
    expect(await readFile(join(mergeFolder, junitReport), 'utf8')).toMatch(/<testsuite name="greeting" tests="24"/);
    expect(await readFile(join(published, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  }, 180_000);

  it('fails the merge job when the merged run misses the gate, and still writes the HTML report', async () => {
    const mergeFolder = join(root, 'gate-merge');
    for (let index = 1; index <= 3; index += 1) {
      const folder = join(root, `gate-shard-${index}`);
      const env = { CI_NODE_INDEX: String(index), CI_NODE_TOTAL: '3', MIN_DELTA: '60' };
      const shard = await runJob(shardJob, folder, env);
      expect(shard.exitCode, shard.stderr).toBe(0);
      await cp(join(folder, 'skeval-shards'), join(mergeFolder, 'skeval-shards'), { recursive: true });
    }
    const merge = await runJob(mergeJob, mergeFolder, { CI_PIPELINE_ID: '78', MIN_DELTA: '60' });
    expect(merge.exitCode, merge.stderr).toBe(1);
    expect(merge.stderr).toMatch(/gate min-delta failed: greeting/);
    expect(existsSync(join(mergeFolder, 'skeval-merged/report.html'))).toBe(true);
  }, 180_000);
});
