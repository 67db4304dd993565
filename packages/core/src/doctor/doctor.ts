import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunner } from '../runners/create-runner.js';
import { chooseSandbox } from '../session/choose-sandbox.js';
import { type EgressPlan, findForwarder } from '../session/egress/forwarder.js';
import { locateProgram, programPaths } from '../session/program-paths.js';
import { runProcess } from '../session/run-process.js';
import type { NetworkMode, Sandbox } from '../session/sandbox.js';
import { temporaryRoot } from '../session/temporary-folders.js';
import { type AllowlistProbe, probeAllowlist } from './probe-allowlist.js';

/** One agent CLI as `skeval doctor` found it. */
export interface DoctorAgent {
  agent: 'claude-code' | 'codex' | 'pi';
  executable: string;
  /** Where `PATH` finds it; `null` when it does not. */
  path: string | null;
  version: string | null;
  /** What the sandbox keeps readable for it: its package (and dependencies), the Node it runs on. */
  readable: string[];
  /**
   * What `--network model` lets it reach: the model endpoints it is configured for on this
   * machine (its settings, as a case run reads them), then the allowed hosts given.
   */
  reaches: string[];
  /** `--version` ran inside the sandbox, with the user's home and Skeval's folders hidden. */
  startsInSandbox: boolean | null;
  /** What is wrong, with the fix. */
  problem?: string;
}

/** What `skeval doctor` found on this machine. */
export interface DoctorReport {
  sandbox: { kind: Sandbox['kind']; reason: string; capabilities: string | null; userNamespace: string | null };
  /** How `--network model` reaches out: the forwarder inside the sandbox, and whether the probe held. */
  network: { forwarder: EgressPlan['forwarder']['kind']; executable: string; probe: AllowlistProbe | null };
  agents: DoctorAgent[];
}

const cliAgents = [
  { agent: 'claude-code', executable: 'claude', install: 'npm i -g @anthropic-ai/claude-code' },
  { agent: 'codex', executable: 'codex', install: 'npm i -g @openai/codex' },
  { agent: 'pi', executable: 'pi', install: 'npm i -g @mariozechner/pi-coding-agent' },
] as const;

/** Runs `<cli> --version` in the sandbox as a case run would: the user's home and Skeval's folders hidden. */
async function startsInSandbox(sandbox: Sandbox, file: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-doctor-'));
  try {
    const homeDir = join(root, 'home');
    await mkdir(homeDir);
    const hidden = [...(env.HOME ? [env.HOME] : []), temporaryRoot()];
    const plan = {
      workspaceDir: root,
      homeDir,
      tmpDir: root,
      readable: programPaths(file, env.PATH),
      hidden,
      network: 'none' as const,
    };
    const wrapped = sandbox.wrap({ file, args: ['--version'] }, plan);
    const outcome = await runProcess({
      ...wrapped,
      cwd: root,
      env: { PATH: env.PATH ?? '', HOME: homeDir, TMPDIR: root },
      timeoutMs: 60_000,
    });
    if (outcome.exitCode === 0) return undefined;
    return `${outcome.startError ?? ''}${outcome.stderr.trim().slice(-400)}` || `exit ${outcome.exitCode}`;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function checkAgent(
  entry: (typeof cliAgents)[number],
  sandbox: Sandbox,
  env: NodeJS.ProcessEnv,
  allowHosts: readonly string[],
): Promise<DoctorAgent> {
  const path = locateProgram(entry.executable, env.PATH) ?? null;
  const runner = createRunner({ agent: entry.agent, executable: path ?? entry.executable, env });
  const endpoints = (await runner.endpoints?.(env).catch(() => [])) ?? [];
  const reaches = [...new Set([...endpoints, ...allowHosts])];
  const base = { agent: entry.agent, executable: entry.executable, path, reaches };
  if (!path)
    return {
      ...base,
      version: null,
      readable: [],
      startsInSandbox: null,
      problem: `not on PATH; install it (${entry.install}) or pass --agent-bin to skeval run`,
    };
  const readable = programPaths(path, env.PATH);
  const checked = await runner.check?.({ env, sandbox: sandbox.kind }).catch(() => undefined);
  const version = checked?.version ?? null;
  if (sandbox.kind === 'none') return { ...base, version, readable, startsInSandbox: null };
  const failure = await startsInSandbox(sandbox, path, env);
  if (!failure) return { ...base, version, readable, startsInSandbox: true };
  const problem = `\`${entry.executable} --version\` fails in the sandbox: ${failure}; pass the folder it cannot reach with --sandbox-mount <path>`;
  return { ...base, version, readable, startsInSandbox: false, problem };
}

/**
 * What `skeval doctor` checks on this machine: the sandbox backend in force (as a run would
 * choose it), the allowlist (a probe: a stand-in model endpoint on 127.0.0.1 reached from
 * inside, another loopback port not), and each agent CLI on `PATH` (where, which version, what
 * the sandbox keeps readable for it, and whether it starts inside).
 */
export async function runDoctor(
  options: {
    env?: NodeJS.ProcessEnv /** `--allow-host`: hosts every agent may reach besides its model. */;
    allowHosts?: string[];
  } = {},
): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const sandbox = chooseSandbox();
  const forwarder = findForwarder(env.PATH);
  const probe = sandbox.kind === 'none' ? null : await probeAllowlist(sandbox, forwarder);
  const agents = [];
  for (const entry of cliAgents) agents.push(await checkAgent(entry, sandbox, env, options.allowHosts ?? []));
  return {
    sandbox: {
      kind: sandbox.kind,
      reason: sandbox.reason,
      capabilities: sandbox.privileges?.capabilities ?? null,
      userNamespace: sandbox.privileges?.userNamespace ?? null,
    },
    network: { forwarder: forwarder.kind, executable: forwarder.executable, probe },
    agents,
  };
}

/** Whether the machine contains agents as a run needs: a sandbox, and an allowlist that holds. */
export function doctorPassed(report: DoctorReport): boolean {
  const probe = report.network.probe;
  return report.sandbox.kind !== 'none' && probe !== null && probe.modelReached && probe.loopbackBlocked;
}

/** The one line `skeval run --dry-run` prints of the containment a run would have. */
export function containmentSummary(options: {
  sandbox: Sandbox;
  network: NetworkMode;
  agent?: { name: string; version: string | null; path?: string | null };
}): string {
  const { sandbox } = options;
  const backend =
    sandbox.kind === 'none'
      ? `no sandbox (${sandbox.reason})`
      : `bwrap (capabilities ${sandbox.privileges?.capabilities ?? 'unknown'}, user namespace ${sandbox.privileges?.userNamespace ?? 'unknown'})`;
  const network =
    sandbox.kind === 'none'
      ? 'network open (nothing enforces --network)'
      : options.network === 'model'
        ? `network model through ${findForwarder().kind}`
        : `network ${options.network}`;
  const agent = options.agent
    ? `; agent ${options.agent.name}${options.agent.version ? ` ${options.agent.version}` : ''}${options.agent.path ? ` at ${options.agent.path}` : ''}`
    : '';
  return `sandbox ${backend}; ${network}${agent} (skeval doctor checks it all)`;
}

/** `skeval doctor`'s text: one line a check, what is missing with its fix. */
export function renderDoctor(report: DoctorReport): string {
  const { sandbox, network } = report;
  const lines = [
    sandbox.kind === 'none'
      ? `✗ sandbox: none — ${sandbox.reason}`
      : `✓ sandbox: bubblewrap (${sandbox.reason}); capabilities ${sandbox.capabilities}, user namespace ${sandbox.userNamespace}`,
  ];
  const forwarder = `${network.forwarder} (${network.executable})${network.forwarder === 'node' ? '; install Perl or socat for a faster start (apt-get install -y perl-base or socat)' : ''}`;
  const probe = network.probe;
  if (!probe) lines.push('✗ allowlist: not enforced without a sandbox');
  else if (probe.problem) lines.push(`✗ allowlist: ${probe.problem}`);
  else
    lines.push(
      `${probe.modelReached && probe.loopbackBlocked ? '✓' : '✗'} allowlist (--network model): a model endpoint on 127.0.0.1 ${probe.modelReached ? 'reached' : 'NOT reached'}, another loopback port ${probe.loopbackBlocked ? 'blocked and recorded' : 'NOT blocked'}; forwarder ${forwarder}`,
    );
  for (const agent of report.agents) {
    if (!agent.path) {
      lines.push(`- ${agent.agent}: ${agent.problem}`);
      continue;
    }
    const mark = agent.startsInSandbox === false ? '✗' : '✓';
    const starts = agent.startsInSandbox === null ? '' : agent.startsInSandbox ? ', starts in the sandbox' : '';
    lines.push(`${mark} ${agent.agent}: ${agent.path}${agent.version ? ` (${agent.version})` : ''}${starts}`);
    lines.push(`    readable in the sandbox: ${agent.readable.join(', ')}`);
    lines.push(
      `    may reach with --network model: ${agent.reaches.join(', ') || 'nothing (no model endpoint configured)'}`,
    );
    if (agent.problem) lines.push(`    ${agent.problem}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The closing line of `skeval doctor`: what holds and which CLIs were found. */
export function doctorSummary(report: DoctorReport): string {
  const found = report.agents.filter((agent) => agent.path);
  const agents = report.agents
    .map(
      (agent) =>
        `${agent.agent} ${agent.path ? (agent.startsInSandbox === false ? 'fails in the sandbox' : (agent.version ?? 'found')) : 'missing'}`,
    )
    .join(', ');
  const probe = report.network.probe;
  const allowlist = !probe
    ? 'no allowlist'
    : probe.modelReached && probe.loopbackBlocked
      ? `allowlist holds (${report.network.forwarder})`
      : 'allowlist FAILS';
  return `${doctorPassed(report) ? 'ok' : 'problems'}: sandbox ${report.sandbox.kind}, ${allowlist}; ${found.length}/${report.agents.length} agent CLIs: ${agents}\n`;
}
