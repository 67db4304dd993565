import { statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { SandboxCommand } from '../sandbox.js';
import { proxySocketName } from './egress-gate.js';
import { perlForwarder } from './perl-forwarder.js';

/** Where a gate's folder appears inside the sandbox: `/tmp` there is the sandbox's own. */
export const egressMountPoint = '/tmp/.skeval-egress';

/** What the sandbox's network is given with `--network model`: the gate's folder and the ports to listen on. */
export interface EgressPlan {
  /** The gate's folder on the host (see `openEgressGate`). */
  dir: string;
  /** The HTTP proxy's port on the sandbox's loopback (`HTTPS_PROXY=http://127.0.0.1:<port>`). */
  proxyPort: number;
  /** Loopback ports piped to the same port on the host: the model endpoints on 127.0.0.1. */
  loopbackPorts: number[];
  /** Perl where it is installed (one process for every port), else `socat` (one a port), else Node's. */
  forwarder: { kind: ForwarderKind; executable: string };
}

/** The proxy's port in the sandbox: the first of 3128 and up that no loopback endpoint uses. */
export function pickProxyPort(loopbackPorts: readonly number[]): number {
  let port = 3128;
  while (loopbackPorts.includes(port)) port += 1;
  return port;
}

/** What forwards the sandbox's loopback ports to the gate: the first of these found is used. */
export type ForwarderKind = 'perl' | 'socat' | 'node';

const systemFolders = ['/usr/bin', '/bin', '/usr/local/bin'];

/** The first of `kinds` on Skeval's `PATH` (Perl, then `socat`), else Node running Skeval. */
export function findForwarder(
  path = process.env.PATH,
  kinds: readonly ForwarderKind[] = ['perl', 'socat', 'node'],
): EgressPlan['forwarder'] {
  for (const kind of kinds) {
    if (kind === 'node') return { kind, executable: process.execPath };
    for (const folder of (path ?? '').split(delimiter)) {
      // Only the system's Perl: one under a home (perlbrew) keeps its modules where the sandbox hides them.
      if (!folder || (kind === 'perl' && !systemFolders.includes(folder))) continue;
      try {
        if (statSync(join(folder, kind)).isFile()) return { kind, executable: join(folder, kind) };
      } catch {
        // not here
      }
    }
  }
  return { kind: 'node', executable: process.execPath };
}

/** Variables that send an agent's HTTP(S) through the proxy: curl reads the lower-case ones, Node 24 `NODE_USE_ENV_PROXY`. */
export function proxyEnvironment(proxyPort: number): Record<string, string> {
  const url = `http://127.0.0.1:${proxyPort}`;
  return {
    HTTPS_PROXY: url,
    https_proxy: url,
    HTTP_PROXY: url,
    http_proxy: url,
    NODE_USE_ENV_PROXY: '1',
  };
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** Node's forwarder: each `port=socket` argument, a listener on 127.0.0.1:port piped to the socket. */
const nodeForwarder = `const net=require('net');for(const route of process.argv.slice(1)){const[port,socket]=route.split('=');net.createServer((client)=>{const up=net.connect(socket);const end=()=>{client.destroy();up.destroy()};client.on('error',end);up.on('error',end);client.pipe(up).pipe(client)}).listen(Number(port),'127.0.0.1')}`;

/**
 * The command run inside the sandbox's own network namespace. Perl binds every port, then
 * starts the program and forwards until it ends (one process, no wait). Else: the forwarders
 * started in the background, a wait until each port listens (read from `/proc/net/tcp`, no process per try),
 * then the agent's program in the shell's place. The forwarders end with the sandbox's PID
 * namespace when the program does.
 */
export function forwardedCommand(command: SandboxCommand, egress: EgressPlan): SandboxCommand {
  const routes = [
    { port: egress.proxyPort, socket: `${egressMountPoint}/${proxySocketName}` },
    ...egress.loopbackPorts.map((port) => ({ port, socket: `${egressMountPoint}/${port}` })),
  ];
  if (egress.forwarder.kind === 'perl') {
    const pairs = routes.map(({ port, socket }) => `${port}=${socket}`);
    return {
      file: egress.forwarder.executable,
      args: ['-e', perlForwarder, '--', String(pairs.length), ...pairs, command.file, ...command.args],
    };
  }
  const forwarder = quote(egress.forwarder.executable);
  const starts =
    egress.forwarder.kind === 'socat'
      ? routes.map(
          ({ port, socket }) =>
            `${forwarder} TCP-LISTEN:${port},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${socket} 2>/dev/null &`,
        )
      : [
          `${forwarder} -e ${quote(nodeForwarder)} ${routes.map(({ port, socket }) => `${port}=${socket}`).join(' ')} &`,
        ];
  const hexPorts = routes.map(({ port }) => port.toString(16).toUpperCase().padStart(4, '0')).join(' ');
  const script = [
    ...starts,
    `ready() { for p in ${hexPorts}; do f=; while read -r _ a _ s _; do [ "$a" = "0100007F:$p" ] && [ "$s" = 0A ] && { f=1; break; }; done </proc/net/tcp; [ -n "$f" ] || return 1; done; }`,
    'n=0',
    `until ready; do n=$((n+1)); [ $n -gt 1100 ] && { echo "skeval: the sandbox's network forwarder (${egress.forwarder.kind}) did not start" >&2; exit 125; }; [ $n -gt 100 ] && sleep 0.01; done`,
    'exec "$@"',
  ].join('\n');
  return { file: '/bin/sh', args: ['-c', script, 'sh', command.file, ...command.args] };
}
