import { join } from 'node:path';
import { type AllowedHost, formatAllowedHost } from '@skeval/schema/internal';
import type { AgentCommand, RunnerContext } from '../runners/types.js';
import { endpointOf } from './egress/allowlist.js';
import { type BlockedConnection, type EgressGate, openEgressGate } from './egress/egress-gate.js';
import { type EgressPlan, findForwarder, pickProxyPort, proxyEnvironment } from './egress/forwarder.js';
import { programPaths } from './program-paths.js';
import { type ProcessOutcome, runProcess } from './run-process.js';
import type { Sandbox, SandboxPlan } from './sandbox.js';

let forwarder: EgressPlan['forwarder'] | undefined;

/** The places each program needs readable, by sandbox: a run's sandbox looks each program up once. */
const programPlaces = new WeakMap<Sandbox, Map<string, string[]>>();

/**
 * What must stay readable for `file` to run in the sandbox, looked up on the first case run of
 * the run that starts it. Without a sandbox everything is readable as it is: nothing is looked up.
 */
function programPlacesOf(sandbox: Sandbox, file: string, path: string | undefined): string[] {
  if (sandbox.kind === 'none') return [];
  let known = programPlaces.get(sandbox);
  if (!known) {
    known = new Map();
    programPlaces.set(sandbox, known);
  }
  const key = `${file}\0${path ?? ''}`;
  let places = known.get(key);
  if (!places) {
    places = programPaths(file, path);
    known.set(key, places);
  }
  return places;
}

/** What a case run's agent could reach and what it was refused, for `context-manifest.json`. */
export interface CaseNetwork {
  /** The allowlist (`host` or `host:port`): its model endpoints and the allowed hosts. */
  allowed: string[];
  blocked: BlockedConnection[];
  /** The model endpoints the agent's programs were configured for, whatever the network. */
  endpoints: string[];
}

/**
 * The `exec` of one case run: every program runs in the workspace, inside the sandbox under the
 * plan, with the case run's environment, time limit and abort signal, and a marker variable by
 * which the processes it leaves behind are found afterwards. With `egress` (`--network model`),
 * each program gets a gate of its own that lets through its model endpoints (`endpoints`) and
 * the allowed hosts, and records what it refused.
 */
export function createCaseExec(options: {
  sandbox: Sandbox;
  plan: SandboxPlan;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Sees every program's stdout as it arrives. */
  onStdout?: (chunk: string) => void;
  /** `--network model` in a sandbox: where the gates' sockets go, and the hosts allowed besides each program's model. */
  egress?: { dir: string; allowHosts: readonly AllowedHost[] };
}): { exec: RunnerContext['exec']; environmentNames: () => string[]; network: () => CaseNetwork } {
  const names = new Set(Object.keys(options.env));
  const allowedSeen = new Set((options.egress?.allowHosts ?? []).map(formatAllowedHost));
  const blocked: BlockedConnection[] = [];
  const endpointsSeen = new Set<string>();
  let gates = 0;
  const exec = async (
    command: AgentCommand,
    overrides: { timeoutMs?: number; maxOutputBytes?: number } = {},
  ): Promise<ProcessOutcome> => {
    let env: NodeJS.ProcessEnv = { ...options.env, ...command.env };
    for (const name of Object.keys(command.env ?? {})) names.add(name);
    const programPlaces = programPlacesOf(options.sandbox, command.file, env.PATH);
    const readable = [...options.plan.readable, ...(command.readable ?? []), ...programPlaces];
    for (const url of command.endpoints ?? []) endpointsSeen.add(url);
    let gate: EgressGate | undefined;
    let egress: EgressPlan | undefined;
    if (options.egress) {
      const endpoints = (command.endpoints ?? []).flatMap((url) => endpointOf(url) ?? []);
      const allowed = [...options.egress.allowHosts, ...endpoints];
      for (const entry of allowed) allowedSeen.add(formatAllowedHost(entry));
      gate = await openEgressGate({ dir: join(options.egress.dir, String(gates++)), allowed });
      forwarder ??= findForwarder();
      const proxyPort = pickProxyPort(gate.loopbackPorts);
      // A port below 1024 cannot be listened on without a capability: those go through the proxy only.
      const loopbackPorts = gate.loopbackPorts.filter((port) => port >= 1024);
      egress = { dir: gate.dir, proxyPort, loopbackPorts, forwarder };
      const proxies = proxyEnvironment(proxyPort);
      for (const name of Object.keys(proxies)) names.add(name);
      env = { ...env, ...proxies };
    }
    const plan = { ...options.plan, readable, ...(egress ? { egress } : {}) };
    const wrapped = options.sandbox.wrap({ file: command.file, args: command.args }, plan);
    return runProcess({
      file: wrapped.file,
      args: wrapped.args,
      cwd: options.plan.workspaceDir,
      env,
      timeoutMs: overrides.timeoutMs ?? options.timeoutMs,
      ...(overrides.maxOutputBytes === undefined ? {} : { maxOutputBytes: overrides.maxOutputBytes }),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onStdout ? { onStdout: options.onStdout } : {}),
    }).finally(async () => {
      if (!gate) return;
      blocked.push(...gate.blocked);
      await gate.close();
    });
  };
  return {
    exec,
    /** Every variable name the agent's programs got (never the values). */
    environmentNames: () => [...names].sort(),
    network: () => ({ allowed: [...allowedSeen], blocked: [...blocked], endpoints: [...endpointsSeen] }),
  };
}
