import { SkevalError } from '@skeval/schema';
import { createBubblewrapSandbox } from './bubblewrap.js';
import { probeBubblewrapPrivileges } from './bubblewrap-privileges.js';
import { createNoSandbox, type Sandbox, type SandboxKind } from './sandbox.js';

export interface ChooseSandboxOptions {
  /** `bwrap` insists on bubblewrap; `none` runs agents as they are. @default bwrap where it works, else none */
  requested?: SandboxKind;
  /** @default "bwrap" on PATH */
  executable?: string;
}

/**
 * The sandbox agents run in. By default bubblewrap wherever it works without leaving the agent
 * a capability (it is tried once, reading its own capabilities, with each way of dropping them
 * until one works), else none, with the reason said: the caller warns once and every case run
 * records it. Asking for `bwrap` where it cannot run is a usage error.
 */
export function chooseSandbox(options: ChooseSandboxOptions = {}): Sandbox {
  if (options.requested === 'none') return createNoSandbox('--sandbox none');
  const executable = options.executable ?? 'bwrap';
  const probe = tryBubblewrap(executable);
  if ('level' in probe) {
    const sandbox = createBubblewrapSandbox({ executable, level: probe.level });
    return {
      ...sandbox,
      reason: options.requested === 'bwrap' ? '--sandbox bwrap' : 'bubblewrap (the default on Linux)',
    };
  }
  const { problem } = probe;
  if (options.requested === 'bwrap') {
    throw new SkevalError({
      code: 'usage',
      message: `--sandbox bwrap: ${problem}; install bubblewrap (Debian and Ubuntu: apt-get install -y bubblewrap) or use --sandbox none`,
    });
  }
  return createNoSandbox(`no sandbox: ${problem} (install bubblewrap to contain agents)`);
}

function tryBubblewrap(executable: string): ReturnType<typeof probeBubblewrapPrivileges> {
  if (process.platform !== 'linux') return { problem: `bubblewrap runs on Linux only, not ${process.platform}` };
  return probeBubblewrapPrivileges(executable);
}
