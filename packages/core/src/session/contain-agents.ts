import { chooseSandbox } from './choose-sandbox.js';
import { type Containment, createContainment } from './containment.js';
import type { NetworkMode, Sandbox, SandboxKind } from './sandbox.js';

/** How the agents of a run are contained: the options `run` and `triggers` share. */
export interface ContainmentOptions {
  /** `bwrap` insists on bubblewrap; `none` runs agents uncontained. @default bwrap where it works, else none with a note */
  sandbox?: SandboxKind;
  /**
   * `model`: each agent reaches its model endpoint(s) and `allowHosts` only; `on`: everything;
   * `none`: nothing, its model included. Enforced in the bwrap sandbox. @default "model"
   */
  network?: NetworkMode;
  /** Hosts (`host` or `host:port`) every agent may reach besides its model (`--allow-host`). */
  allowHosts?: string[];
  /** Paths kept readable in the sandbox though a hidden folder holds them (`--sandbox-mount`): what an agent CLI needs. */
  sandboxMounts?: string[];
  /** Variables passed to every agent as they are (`--pass-env`); values that look like keys are redacted. */
  passEnv?: string[];
  /**
   * Skeval's own environment: agents get the basics of it (PATH, LANG, TERM, …), the keys of the
   * provider they use and what `passEnv` names, with their own `HOME` and `TMPDIR`; their
   * configuration is read from its `HOME`. @default process.env
   */
  env?: NodeJS.ProcessEnv;
}

/**
 * The sandbox and containment every agent session of a run gets. Asking for a sandbox that
 * cannot run here is a usage error; falling back to none by default is a note.
 */
export function containAgents(options: ContainmentOptions): {
  sandbox: Sandbox;
  containment: Containment;
  notes: string[];
} {
  const sandbox = chooseSandbox(options.sandbox ? { requested: options.sandbox } : {});
  const containment = createContainment({
    sandbox,
    ...(options.network ? { network: options.network } : {}),
    ...(options.allowHosts ? { allowHosts: options.allowHosts } : {}),
    ...(options.sandboxMounts ? { mounts: options.sandboxMounts } : {}),
    userEnv: options.env ?? process.env,
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  });
  return {
    sandbox,
    containment,
    notes: sandbox.kind === 'none' && options.sandbox === undefined ? [sandbox.reason] : [],
  };
}
