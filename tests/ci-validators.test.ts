import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateGitlabCi, validateKubernetes, validateWorkflow } from './ci-examples/engine-validators.js';

// The CI files users copy (docs/ci.md) checked by the validators of the engines that run them,
// and a broken copy of each refused by the same validator: a validator that passed everything
// would fail these tests. The validators are devDependencies, so these tests never skip.

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const example = (name: string) => join(repoRoot, 'examples/ci', name);

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-ci-validators-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A copy of an example with one text replaced (which must be there), written under root. */
async function brokenCopy(name: string, from: string | RegExp, to: string): Promise<string> {
  const source = readFileSync(example(name), 'utf8');
  const broken = source.replace(from, to);
  expect(broken, `${name} no longer holds ${from}`).not.toBe(source);
  const file = join(root, `broken-${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(file, broken);
  return file;
}

describe('examples/ci/github-actions.yml, by action-validator', () => {
  it('is a valid GitHub Actions workflow', () => {
    const result = validateWorkflow(example('github-actions.yml'));
    expect(result.valid, result.output).toBe(true);
  });

  it('refuses a copy whose merge job names its runner under a misspelled key', async () => {
    const result = validateWorkflow(await brokenCopy('github-actions.yml', /(merge:[\s\S]*?)runs-on:/, '$1runs_on:'));
    expect(result.valid).toBe(false);
    expect(result.output).toMatch(/Additional property 'runs_on' is not allowed/);
  });

  it('refuses a copy whose shard timeout is not a number', async () => {
    const result = validateWorkflow(
      await brokenCopy('github-actions.yml', 'timeout-minutes: 60', 'timeout-minutes: 1h'),
    );
    expect(result.valid).toBe(false);
    expect(result.output).toMatch(/timeout-minutes/);
  });
});

describe('examples/ci/gitlab-ci.yml, by gitlab-ci-local (GitLab CI schema)', () => {
  it('is a valid GitLab CI file with three parallel shards and a merge that needs them', async () => {
    const result = await validateGitlabCi(example('gitlab-ci.yml'));
    expect(result.valid, result.output).toBe(true);
    expect(result.output).toMatch(/"name":\s*"shard: \[3\/3\]"/);
    expect(result.output).toMatch(/"name":\s*"merge"/);
  });

  it('refuses a copy with more parallel jobs than GitLab allows', async () => {
    const result = await validateGitlabCi(await brokenCopy('gitlab-ci.yml', /^ {2}parallel: 3$/m, '  parallel: 300'));
    expect(result.valid).toBe(false);
    expect(result.output).toMatch(/parallel.*(maximum|<= 200)|must be <= 200/);
  });

  it('refuses a copy whose merge needs a job that does not exist', async () => {
    const result = await validateGitlabCi(await brokenCopy('gitlab-ci.yml', '- job: shard', '- job: shards'));
    expect(result.valid).toBe(false);
    expect(result.output).toMatch(/shards/);
  });
});

describe('examples/ci/k8s-indexed-job.yaml, by the Kubernetes API schemas (kubernetes-models)', () => {
  const manifest = () => readFileSync(example('k8s-indexed-job.yaml'), 'utf8');

  it('holds three documents, each valid for its kind', async () => {
    const result = await validateKubernetes(manifest());
    expect(result.valid, result.output).toBe(true);
  });

  it('refuses a copy whose Indexed Job has a completion mode Kubernetes does not know', async () => {
    const result = await validateKubernetes(manifest().replace('completionMode: Indexed', 'completionMode: indexed'));
    expect(result.valid).toBe(false);
    expect(result.output).toMatch(/document 2 \(Job\): .*completionMode must be equal to one of the allowed values/);
  });

  it('refuses a copy whose retry limit is not a number', async () => {
    const broken = manifest().replace('backoffLimit: 3', 'backoffLimit: three');
    expect(broken).not.toBe(manifest());
    const result = await validateKubernetes(broken);
    expect(result.valid).toBe(false);
    expect(result.output).toMatch(/backoffLimit must be integer/);
  });
});
