import { spawnSync } from 'node:child_process';
import { SkevalError } from '@skeval/schema';
import { createBubblewrapSandbox } from './bubblewrap.js';
import { createNoSandbox, type Sandbox, type SandboxKind } from './sandbox.js';

export interface ChooseSandboxOptions {
  /** `bwrap` insists on bubblewrap; `none` runs agents as they are. @default bwrap where it works, else none */
  requested?: SandboxKind;
  /** @default "bwrap" on PATH */
  executable?: string;
}

/**
 * The sandbox agents run in. By default bubblewrap wherever it works (it is tried once, with a
 * do-nothing command), else none, with the reason said: the caller warns once and every case
 * run records it. Asking for `bwrap` where it cannot run is a usage error.
 */
export function chooseSandbox(options: ChooseSandboxOptions = {}): Sandbox {
  if (options.requested === 'none') return createNoSandbox('--sandbox none');
  const executable = options.executable ?? 'bwrap';
  const problem = bubblewrapProblem(executable);
  if (problem === undefined) {
    const sandbox = createBubblewrapSandbox({ executable });
    return {
      ...sandbox,
      reason: options.requested === 'bwrap' ? '--sandbox bwrap' : 'bubblewrap (the default on Linux)',
    };
  }
  if (options.requested === 'bwrap') {
    throw new SkevalError({
      code: 'usage',
      message: `--sandbox bwrap: ${problem}; install bubblewrap (Debian and Ubuntu: apt-get install -y bubblewrap) or use --sandbox none`,
    });
  }
  return createNoSandbox(`no sandbox: ${problem} (install bubblewrap to contain agents)`);
}

function bubblewrapProblem(executable: string): string | undefined {
  if (process.platform !== 'linux') return `bubblewrap runs on Linux only, not ${process.platform}`;
  const tried = spawnSync(executable, ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (tried.error) return `${executable} cannot be started (${tried.error.message})`;
  if (tried.status !== 0) return `${executable} does not work here: ${tried.stderr.trim() || `exit ${tried.status}`}`;
  return undefined;
}
