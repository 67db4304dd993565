import type { NetworkMode } from './sandbox.js';

/** What a macOS `sandbox-exec` profile lets the agent do: the same plan as bubblewrap's, as Seatbelt rules. */
export interface SeatbeltPlan {
  workspaceDir: string;
  homeDir: string;
  tmpDir: string;
  /** Readable though a hidden folder holds them: the agent's program and package, a prompt file. */
  readable: readonly string[];
  /** Neither readable nor writable: the user's home, the project, Skeval's own folders. */
  hidden: readonly string[];
  network: NetworkMode;
  /**
   * With `model`: the ports on the Mac's loopback the agent may connect to, the allowlist's proxy
   * (a host name cannot be told apart in Seatbelt, so every other host goes through it) and each
   * model endpoint served on 127.0.0.1.
   */
  loopbackPorts?: readonly number[];
}

/** A path as a Seatbelt string literal. */
const literal = (path: string) => `"${path.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
const subpaths = (paths: readonly string[]) => paths.map((path) => `(subpath ${literal(path)})`).join(' ');

/**
 * The Seatbelt profile (`sandbox-exec -p <profile>`) of a case run on macOS. Rules later in a
 * profile win over earlier ones, so the order is the bubblewrap backend's: the host readable,
 * the hidden folders taken away, what must stay readable given back, writes only to the
 * workspace, the agent's own home and temporary folder (and `/dev`'s null, tty and the like);
 * the network as `network` says: nothing, only the loopback ports of the allowlist, or all.
 */
export function seatbeltProfile(plan: SeatbeltPlan): string {
  const writable = [plan.workspaceDir, plan.homeDir, plan.tmpDir];
  const rules = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm-read-data ipc-posix-shm-write-data ipc-posix-sem)',
    '(allow file-read*)',
    ...(plan.hidden.length ? [`(deny file-read* file-write* ${subpaths(plan.hidden)})`] : []),
    ...(plan.readable.length ? [`(allow file-read* ${subpaths(plan.readable)})`] : []),
    `(allow file-read* file-write* ${subpaths(writable)})`,
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/"))',
    '(allow file-ioctl (literal "/dev/tty"))',
  ];
  if (plan.network === 'on') rules.push('(allow network*)');
  else if (plan.network === 'model') {
    for (const port of plan.loopbackPorts ?? []) rules.push(`(allow network-outbound (remote ip "localhost:${port}"))`);
    // Name lookups go to the system's resolver over a unix socket: the proxy resolves instead.
  }
  return `${rules.join('\n')}\n`;
}
