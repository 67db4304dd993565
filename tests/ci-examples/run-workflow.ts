// Runs a GitHub Actions workflow's jobs here, the way a runner would as far as Skeval is
// concerned: jobs in `needs` order, each matrix entry on a fresh machine (a new folder), steps in
// order under their `if:`, every `run:` step that calls skeval through bash as GitHub's `bash -e
// {0}` shell does (with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and the workflow's, job's and step's
// env), and upload-artifact/download-artifact v4 as copies that follow symbolic links, leave
// hidden files out unless asked, refuse a name twice and put each matched artifact in its own
// folder. Install steps (npm ci, apt-get) are left out: the test machine has what they install.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { type ExpressionContext, interpolate, stepRuns } from './github-expressions.js';
import { list, type Mapping, mapping, optionalText, strings, text, withBuiltCli } from './yaml-shapes.js';

export interface StepResult {
  name: string;
  ran: boolean;
  /** The exit code of a `run:` step that ran; 0 for an action that succeeded. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface JobResult {
  job: string;
  matrix: Record<string, string>;
  status: 'success' | 'failure' | 'skipped' | 'cancelled';
  /** The job's machine: its checkout and working directory. */
  workspace: string;
  steps: StepResult[];
  summary: string;
}

export interface WorkflowRunOptions {
  workflow: Mapping;
  cliPath: string;
  /** Where machines and the artifact store are made. */
  root: string;
  /** Prepares a job's checkout (the test writes the skeval.config.json naming its agent). */
  checkout: (workspace: string) => Promise<void>;
  /** Values that replace the workflow's own `env:`; each must be one the workflow defines. */
  envOverrides?: Record<string, string>;
  runId?: string;
}

function matrixEntries(job: Mapping, where: string): Array<Record<string, string>> {
  const strategy = job.strategy === undefined ? {} : mapping(job.strategy, `${where}.strategy`);
  if (strategy.matrix === undefined) return [{}];
  let entries: Array<Record<string, string>> = [{}];
  for (const [key, values] of Object.entries(mapping(strategy.matrix, `${where}.strategy.matrix`))) {
    if (key === 'include' || key === 'exclude') throw new Error(`${where}: the test does not expand matrix ${key}`);
    const options = list(values, `${where}.strategy.matrix.${key}`).map((value) => text(value, key));
    entries = entries.flatMap((entry) => options.map((option) => ({ ...entry, [key]: option })));
  }
  return entries;
}

async function copyArtifact(from: string, to: string, includeHidden: boolean): Promise<number> {
  let files = 0;
  await cp(from, to, {
    recursive: true,
    dereference: true,
    filter: (source) => {
      if (resolve(source) === resolve(from)) return true;
      const kept = includeHidden || !basename(source).startsWith('.');
      if (kept) files += 1;
      return kept;
    },
  });
  return files;
}

/** download-artifact's `pattern`, as a regular expression over artifact names. */
export const globToRegExp = (pattern: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

async function runAction(uses: string, inputs: Record<string, string>, workspace: string, store: string) {
  const [action] = uses.split('@');
  if (action === 'actions/checkout' || action === 'actions/setup-node') return;
  if (action === 'actions/upload-artifact') {
    const name = inputs.name ?? 'artifact';
    const target = join(store, name);
    if (existsSync(target)) throw new Error(`upload-artifact: an artifact named ${name} was already uploaded`);
    const path = resolve(workspace, text(inputs.path, `${uses} path`));
    const files = existsSync(path) ? await copyArtifact(path, target, inputs['include-hidden-files'] === 'true') : 0;
    if (files === 0 && inputs['if-no-files-found'] === 'error') throw new Error(`upload-artifact: no files at ${path}`);
    return;
  }
  if (action === 'actions/download-artifact') {
    const path = resolve(workspace, inputs.path ?? '.');
    const names = existsSync(store) ? await readdir(store) : [];
    if (inputs.name !== undefined) {
      if (!names.includes(inputs.name)) throw new Error(`download-artifact: no artifact named ${inputs.name}`);
      await cp(join(store, inputs.name), path, { recursive: true });
      return;
    }
    const pattern = globToRegExp(inputs.pattern ?? '*');
    const matched = names.filter((name) => pattern.test(name));
    for (const name of matched) {
      const target = inputs['merge-multiple'] === 'true' ? path : join(path, name);
      await cp(join(store, name), target, { recursive: true, errorOnExist: true, force: false });
    }
    return;
  }
  throw new Error(`${uses}: the test does not know this action`);
}

function runScript(script: string, workspace: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: workspace,
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.error) throw result.error;
  return { exitCode: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

function parseOutputs(content: string): Record<string, string> {
  return Object.fromEntries(
    content
      .split('\n')
      .map((line) => /^([\w-]+)=(.*)$/.exec(line))
      .flatMap((match) => (match?.[1] ? [[match[1], match[2] ?? '']] : [])),
  );
}

async function runJob(
  id: string,
  job: Mapping,
  matrix: Record<string, string>,
  options: WorkflowRunOptions,
  workflowEnv: Record<string, string>,
): Promise<JobResult> {
  const workspace = join(options.root, `${id}-${Object.values(matrix).join('-') || 'job'}`);
  await mkdir(workspace, { recursive: true });
  await options.checkout(workspace);
  const outputFile = join(options.root, `${basename(workspace)}.output`);
  const summaryFile = join(options.root, `${basename(workspace)}.summary`);
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  const stepsContext: Mapping = {};
  const context: ExpressionContext = {
    contexts: { matrix, github: { run_id: options.runId ?? '1' }, secrets: {}, env: workflowEnv, steps: stepsContext },
    failed: false,
  };
  const steps: StepResult[] = [];
  for (const [index, value] of list(job.steps, `jobs.${id}.steps`).entries()) {
    const where = `jobs.${id}.steps[${index}]`;
    const step = mapping(value, where);
    const name = interpolate(
      optionalText(step.name, `${where}.name`) ?? optionalText(step.uses ?? step.run, where) ?? where,
      context,
    );
    const condition = optionalText(step.if, `${where}.if`);
    const run = optionalText(step.run, `${where}.run`);
    if (!stepRuns(condition, context) || (run !== undefined && !/\bskeval\b/.test(run))) {
      steps.push({ name, ran: false, exitCode: null, stdout: '', stderr: '' });
      continue;
    }
    const stepEnv = Object.fromEntries(
      Object.entries(strings(step.env, `${where}.env`)).map(([key, item]) => [key, interpolate(item, context)]),
    );
    let result: Omit<StepResult, 'name' | 'ran'>;
    if (run !== undefined) {
      await writeFile(outputFile, '');
      result = runScript(withBuiltCli(interpolate(run, context), options.cliPath), workspace, {
        ...process.env,
        ...workflowEnv,
        ...stepEnv,
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_RUN_ID: options.runId ?? '1',
        GITHUB_WORKSPACE: workspace,
      });
      const stepId = optionalText(step.id, `${where}.id`);
      if (stepId) stepsContext[stepId] = { outputs: parseOutputs(await readFile(outputFile, 'utf8')) };
    } else {
      const uses = text(step.uses, `${where}.uses`);
      const inputs = Object.fromEntries(
        Object.entries(strings(step.with, `${where}.with`)).map(([key, item]) => [key, interpolate(item, context)]),
      );
      try {
        await runAction(uses, inputs, workspace, join(options.root, 'artifacts'));
        result = { exitCode: 0, stdout: '', stderr: '' };
      } catch (error) {
        result = { exitCode: 1, stdout: '', stderr: String(error) };
      }
    }
    if (result.exitCode !== 0) context.failed = true;
    steps.push({ name, ran: true, ...result });
  }
  const summary = await readFile(summaryFile, 'utf8');
  return { job: id, matrix, status: context.failed ? 'failure' : 'success', workspace, steps, summary };
}

/** Runs the workflow's jobs; a job whose `needs` did not all succeed is skipped, and fail-fast cancels a failed matrix's rest. */
export async function runWorkflow(options: WorkflowRunOptions): Promise<JobResult[]> {
  const workflowEnv = strings(options.workflow.env, 'env');
  for (const [key, value] of Object.entries(options.envOverrides ?? {})) {
    if (!(key in workflowEnv))
      throw new Error(`env.${key}: the workflow no longer defines it, so the test cannot set it`);
    workflowEnv[key] = value;
  }
  const jobs = mapping(options.workflow.jobs, 'jobs');
  const results: JobResult[] = [];
  const statusOf = new Map<string, JobResult['status']>();
  const pending = Object.keys(jobs);
  while (pending.length > 0) {
    const ready = pending.findIndex((id) => {
      const needs = mapping(jobs[id], `jobs.${id}`).needs;
      const names = needs === undefined ? [] : typeof needs === 'string' ? [needs] : list(needs, `jobs.${id}.needs`);
      return names.every((name) => statusOf.has(text(name, `jobs.${id}.needs`)));
    });
    if (ready === -1)
      throw new Error(`jobs ${pending.join(', ')}: their needs name jobs that do not exist, or a cycle`);
    const [id = ''] = pending.splice(ready, 1);
    const job = mapping(jobs[id], `jobs.${id}`);
    const needs = job.needs === undefined ? [] : typeof job.needs === 'string' ? [job.needs] : list(job.needs, id);
    const blocked = needs.some((name) => statusOf.get(text(name, id)) !== 'success');
    const failFast = isFailFast(job);
    let status: JobResult['status'] = 'success';
    for (const matrix of matrixEntries(job, `jobs.${id}`)) {
      if (blocked || (failFast && status === 'failure')) {
        results.push({
          job: id,
          matrix,
          status: blocked ? 'skipped' : 'cancelled',
          workspace: '',
          steps: [],
          summary: '',
        });
        if (blocked) status = 'skipped';
        continue;
      }
      const result = await runJob(id, job, matrix, options, { ...workflowEnv, ...strings(job.env, `jobs.${id}.env`) });
      results.push(result);
      if (result.status === 'failure') status = 'failure';
    }
    statusOf.set(id, status);
  }
  return results;
}

function isFailFast(job: Mapping): boolean {
  const strategy = job.strategy === undefined ? {} : mapping(job.strategy, 'strategy');
  return strategy['fail-fast'] !== false;
}
