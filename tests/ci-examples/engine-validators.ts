// The CI examples checked by the validators of the engines that run them, installed from npm as
// devDependencies: GitHub Actions workflows by action-validator (the workflow schema GitHub's
// runner follows), GitLab CI files by gitlab-ci-local (which validates against GitLab's own
// ci.json schema, then resolves `parallel`, `needs` and stages as GitLab does), and Kubernetes
// manifests by kubernetes-models (the Kubernetes API's OpenAPI schemas, one per kind).
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Job } from 'kubernetes-models/batch/v1';
import { PersistentVolumeClaim } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';

export interface Validation {
  valid: boolean;
  /** What the validator said, for the test's message. */
  output: string;
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

/** A validator's command line, its exit code saying whether the file is valid. */
function runValidator(args: string[], cwd: string, env = process.env): Validation {
  const result = spawnSync(process.execPath, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
  return { valid: result.status === 0, output };
}

/** A GitHub Actions workflow file, checked by action-validator's command line. */
export function validateWorkflow(file: string): Validation {
  return runValidator([require.resolve('@action-validator/cli/cli.mjs'), file], repoRoot);
}

// gitlab-ci-local's bundle calls Set.prototype.union (Node 22 and later) once, at load; on Node 20
// this one method is added first, from tests/ci-examples/set-union.mjs.
const setUnion = fileURLToPath(new URL('./set-union.mjs', import.meta.url));

/** A GitLab CI file, in a folder of its own (gitlab-ci-local writes its state beside the file). */
export async function validateGitlabCi(file: string): Promise<Validation> {
  const folder = await mkdtemp(join(tmpdir(), 'skeval-gitlab-ci-'));
  try {
    await copyFile(file, join(folder, '.gitlab-ci.yml'));
    spawnSync('git', ['init', '--quiet', folder]);
    const cli = require.resolve('gitlab-ci-local/dist/index.js');
    // Its HOME holds user-wide variables: a fresh one, so nothing of the machine's comes in.
    const env = { ...process.env, HOME: folder };
    const list = runValidator(['--import', setUnion, cli, '--list-json'], folder, env);
    if (!list.valid) return list;
    const chain = runValidator(['--import', setUnion, cli, '--validate-dependency-chain'], folder, env);
    return { valid: chain.valid, output: `${list.output}${chain.output}` };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The kinds the examples use, by apiVersion and kind: a model the manifest's fields are put on. */
const models: Record<string, () => { validate(): void }> = {
  'v1 PersistentVolumeClaim': () => new PersistentVolumeClaim(),
  'batch/v1 Job': () => new Job(),
};

/** Every document of a Kubernetes manifest, validated against the API's schema for its kind. */
export function validateKubernetes(source: string): Validation {
  const problems: string[] = [];
  const documents = parseAllDocuments(source);
  if (!Array.isArray(documents)) return { valid: false, output: 'not a YAML stream' };
  for (const [index, document] of documents.entries()) {
    for (const error of document.errors) problems.push(`document ${index + 1}: ${error.message}`);
    const manifest: unknown = document.toJS();
    if (typeof manifest !== 'object' || manifest === null || !('apiVersion' in manifest) || !('kind' in manifest)) {
      problems.push(`document ${index + 1}: no apiVersion and kind`);
      continue;
    }
    const { apiVersion, kind } = manifest;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string') {
      problems.push(`document ${index + 1}: apiVersion and kind must be strings`);
      continue;
    }
    const model = models[`${apiVersion} ${kind}`];
    if (!model) {
      problems.push(`document ${index + 1}: ${apiVersion} ${kind} is not in the validator's table; add it there`);
      continue;
    }
    try {
      Object.assign(model(), manifest).validate();
    } catch (error) {
      problems.push(`document ${index + 1} (${kind}): ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { valid: problems.length === 0 && documents.length > 0, output: problems.join('\n') };
}
