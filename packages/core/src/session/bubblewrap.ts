import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { sep } from 'node:path';
import { type BubblewrapPrivilegeLevel, bubblewrapPrivilegeLevels } from './bubblewrap-privileges.js';
import { egressMountPoint, forwardedCommand } from './egress/forwarder.js';
import { hostSocketPaths } from './host-sockets.js';
import type { Sandbox, SandboxPlan } from './sandbox.js';

const [bestLevel] = bubblewrapPrivilegeLevels;

/**
 * bubblewrap: no capabilities (whatever user Skeval runs as), the host read-only, `/tmp`,
 * `/var/tmp` and every hidden folder replaced by an empty tmpfs, the workspace, the agent's
 * home and temporary folder the only writable places, a PID namespace that dies with Skeval (so
 * ending the run ends every process it started, whatever session it made), and a new session
 * so the agent cannot reach Skeval's terminal. `level` is what `chooseSandbox` found to work.
 */
export function createBubblewrapSandbox(
  options: { executable?: string; level?: BubblewrapPrivilegeLevel } = {},
): Sandbox {
  const executable = options.executable ?? 'bwrap';
  const level = options.level ?? bestLevel;
  return {
    kind: 'bwrap',
    reason: 'bubblewrap',
    ...(level ? { privileges: level.privileges } : {}),
    wrap: (command, plan) => {
      const inside = plan.egress ? forwardedCommand(command, plan.egress) : command;
      return {
        file: executable,
        args: [
          ...bubblewrapArgs(plan, level ? { privilegeFlags: level.flags } : {}),
          '--',
          inside.file,
          ...inside.args,
        ],
      };
    },
  };
}

/** The host's temporary places: empty and writable in the sandbox, as a fresh machine's are. */
const temporaryPlaces = ['/tmp', '/var/tmp'];
/** Where services keep their sockets (Docker's, the system bus, each user's runtime folder): empty unless the network is open. */
const socketPlaces = ['/run', '/var/run'];

export interface BubblewrapArgsOptions {
  /** How bubblewrap drops the user's privileges. @default the best level (`--unshare-user --disable-userns --cap-drop ALL`) */
  privilegeFlags?: readonly string[];
  /** The host's unix sockets, covered unless the network is open. @default those `/proc/net/unix` lists */
  hostSockets?: readonly string[];
}

/** bubblewrap's arguments for a plan; later mounts shadow earlier ones, so the order matters. */
export function bubblewrapArgs(plan: SandboxPlan, options: BubblewrapArgsOptions = {}): string[] {
  // `model` and `none` both get a network namespace of their own: only its loopback, no host
  // service, no abstract socket; `model` reaches out through the gate's sockets alone.
  const offline = plan.network !== 'on';
  const args = ['--die-with-parent', '--unshare-pid', ...(options.privilegeFlags ?? bestLevel?.flags ?? [])];
  args.push('--new-session', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  const fresh = outermost(realFolders([...temporaryPlaces, ...(offline ? socketPlaces : [])]));
  for (const place of fresh) args.push('--tmpfs', place);
  const hidden = outermost(plan.hidden.filter((path) => existsSync(path))).filter(
    // A fresh place hidden again would only turn read-only; what `--dev` made holds nothing of the host.
    (path) => !fresh.includes(path) && !isWithin(path, ['/dev']),
  );
  const hiddenFolders: string[] = [];
  for (const path of hidden) {
    // A hidden folder becomes an empty tmpfs; a hidden file reads as empty.
    if (statSync(path).isDirectory()) {
      args.push('--tmpfs', path);
      hiddenFolders.push(path);
    } else args.push('--ro-bind', '/dev/null', path);
  }
  const readable = readableBinds(plan.readable, [...fresh, ...hidden]);
  for (const { from, to, link } of readable) args.push(...(link ? ['--symlink', from, to] : ['--ro-bind', from, to]));
  const writable = [plan.workspaceDir, plan.homeDir, plan.tmpDir];
  for (const path of writable) args.push('--bind', path, path);
  if (plan.egress) args.push('--ro-bind', plan.egress.dir, egressMountPoint);
  // Read-only last, once the mount points inside them exist: writes there fail rather than vanish.
  for (const folder of hiddenFolders) args.push('--remount-ro', folder);
  if (offline) {
    args.push('--unshare-net');
    // A socket on a read-only mount still answers: each one the agent would see reads as /dev/null.
    const covered = [...fresh, ...hidden];
    for (const socket of options.hostSockets ?? hostSocketPaths()) {
      const shown = !isWithin(socket, covered) || isWithin(socket, [...readable.map(({ to }) => to), ...writable]);
      if (shown && isSocket(socket)) args.push('--ro-bind', '/dev/null', socket);
    }
  }
  args.push('--chdir', plan.workspaceDir);
  return args;
}

/**
 * Where each readable path is bound. A path no hidden or fresh place covers is seen through the
 * read-only host as it is, so it takes no mount of its own (each mount is work for every start).
 * bubblewrap makes a mount point by following the path's symbolic links from its own root, so a
 * link to an absolute path (`installed -> /opt/agents/installed`) fails it: the real path is
 * bound. Where what led to a path is hidden (on the visible host its links still lead there),
 * the path as given becomes a link to the real one (`link`): a program started by its link
 * (`~/.npm-global/bin/codex -> ../lib/node_modules/@openai/codex/bin/codex.js`) is one Node
 * finds its packages from.
 */
function readableBinds(
  paths: readonly string[],
  covered: readonly string[],
): Array<{ from: string; to: string; link?: true }> {
  const binds = new Map<string, { from: string; link?: true }>();
  for (const path of paths) {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      continue;
    }
    if (!binds.has(real) && isWithin(real, covered)) binds.set(real, { from: real });
    if (real !== path && isWithin(path, covered)) binds.set(path, { from: real, link: true });
  }
  return [...binds].map(([to, bind]) => ({ to, ...bind }));
}

/** The folders among these that exist, by their real paths (`/var/run` is `/run` on most systems). */
function realFolders(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    try {
      const real = realpathSync(path);
      return statSync(real).isDirectory() ? [real] : [];
    } catch {
      return [];
    }
  });
}

/** The paths not inside another of them: hiding a folder hides what is in it. */
function outermost(paths: readonly string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((path) => !unique.some((other) => other !== path && path.startsWith(`${other}${sep}`)));
}

function isWithin(path: string, folders: readonly string[]): boolean {
  return folders.some((folder) => path === folder || path.startsWith(folder === sep ? sep : `${folder}${sep}`));
}

function isSocket(path: string): boolean {
  try {
    // Big-integer stats: Node's realpathSync (and with it the next import of a linked package)
    // reads the last plain stat's file type, and stops resolving links after a socket's.
    return lstatSync(path, { bigint: true }).isSocket();
  } catch {
    return false;
  }
}
