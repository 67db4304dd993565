import { chooseSandbox } from './choose-sandbox.js';
import { type Containment, createContainment } from './containment.js';
import type { Sandbox, SandboxKind } from './sandbox.js';

/** How the agents of a run are contained: the options `run` and `triggers` share. */
export interface ContainmentOptions {
  /** `bwrap` insists on bubblewrap; `none` runs agents uncontained. @default bwrap where it works, else none with a note */
  sandbox?: SandboxKind;
  /** `none` cuts agents off the network (in the bwrap sandbox). @default "on" */
  network?: 'on' | 'none';
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
    userEnv: options.env ?? process.env,
    ...(options.passEnv ? { passEnv: options.passEnv } : {}),
  });
  return {
    sandbox,
    containment,
    notes: sandbox.kind === 'none' && options.sandbox === undefined ? [sandbox.reason] : [],
  };
}
