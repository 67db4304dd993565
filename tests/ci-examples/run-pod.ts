// Runs a Kubernetes Job's container here, the way the kubelet would as far as Skeval is
// concerned: its command and args (with Kubernetes' own $(VAR) expansion from the container's
// env), the container's env plus JOB_COMPLETION_INDEX for an Indexed Job's pod, in a folder that
// stands in for the image's workingDir, with the volume's mount path replaced by a folder here.
// Env taken from Secrets (valueFrom) is left unset: the test has no keys.
import { spawnSync } from 'node:child_process';
import { list, type Mapping, mapping, text, withBuiltCli } from './yaml-shapes.js';

export interface PodResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** The pod template's one container. */
export function containerOf(job: Mapping, where: string): Mapping {
  const spec = mapping(mapping(mapping(job.spec, `${where}.spec`).template, `${where}.spec.template`).spec, where);
  const containers = list(spec.containers, `${where}.spec.template.spec.containers`);
  if (containers.length !== 1) throw new Error(`${where}: expected one container, found ${containers.length}`);
  return mapping(containers[0], `${where}.spec.template.spec.containers[0]`);
}

/** The container's env given as values, by name (those from Secrets are left out). */
export function containerEnv(container: Mapping, where: string): Record<string, string> {
  const env = container.env === undefined ? [] : list(container.env, `${where}.env`);
  return Object.fromEntries(
    env.flatMap((value, index) => {
      const entry = mapping(value, `${where}.env[${index}]`);
      if (entry.valueFrom !== undefined) return [];
      return [[text(entry.name, `${where}.env[${index}].name`), text(entry.value, `${where}.env[${index}].value`)]];
    }),
  );
}

/** Kubernetes' expansion of $(VAR) in command and args: known names replaced, $$ kept as $, the rest left. */
function expand(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (match, name?: string) =>
    match === '$$' ? '$' : name !== undefined && name in env ? (env[name] ?? '') : match,
  );
}

export interface RunPodOptions {
  job: Mapping;
  where: string;
  /** JOB_COMPLETION_INDEX, for a pod of an Indexed Job. */
  index?: number;
  cliPath: string;
  /** The folder standing in for the container's workingDir. */
  workingDir: string;
  /** Values that replace the container's own env; each must be one it defines. */
  envOverrides: Record<string, string>;
}

export function runPod(options: RunPodOptions): PodResult {
  const container = containerOf(options.job, options.where);
  const env = containerEnv(container, options.where);
  for (const [key, value] of Object.entries(options.envOverrides)) {
    if (!(key in env)) throw new Error(`${options.where}: the container no longer sets ${key}, so the test cannot`);
    env[key] = value;
  }
  if (options.index !== undefined) env.JOB_COMPLETION_INDEX = String(options.index);
  const words = [
    ...(container.command === undefined ? [] : list(container.command, `${options.where}.command`)),
    ...(container.args === undefined ? [] : list(container.args, `${options.where}.args`)),
  ].map((word, index) => withBuiltCli(expand(text(word, `${options.where} word ${index}`), env), options.cliPath));
  const [program, ...args] = words;
  if (program === undefined) throw new Error(`${options.where}: the container has no command`);
  const result = spawnSync(program, args, {
    cwd: options.workingDir,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (result.error) throw result.error;
  return { exitCode: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}
