import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllowHost } from '@skeval/schema/internal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBubblewrapSandbox } from '../bubblewrap.js';
import { probeBubblewrapPrivileges } from '../bubblewrap-privileges.js';
import { runProcess } from '../run-process.js';
import { isAllowed, readAllowHosts } from './allowlist.js';
import { attributeBlocked } from './blocked-calls.js';
import { openEgressGate } from './egress-gate.js';
import { type EgressPlan, findForwarder, pickProxyPort, proxyEnvironment } from './forwarder.js';

// The allowlist's host side on real sockets, then inside bubblewrap with each forwarder: a
// service on 127.0.0.1 that the list allows answers, one it does not never does.

let root: string;
const services: Array<ReturnType<typeof createServer>> = [];
let allowedPort: number;
let markerPort: number;

async function serve(text: string): Promise<number> {
  const server = createServer((_, response) => response.end(text));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  services.push(server);
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-egress-'));
  allowedPort = await serve('MODEL-ANSWER');
  markerPort = await serve('SECRET-MARKER');
});
afterAll(async () => {
  for (const server of services) server.close();
  await rm(root, { recursive: true, force: true });
});

/** One request through a gate's proxy socket, as an HTTP client configured with the proxy would send it. */
function throughProxy(socketPath: string, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request({ socketPath, path: url, headers: { host: new URL(url).host } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject).end();
  });
}

/** A CONNECT through the proxy socket: the status line it answers. */
async function connectThrough(socketPath: string, target: string): Promise<string> {
  const socket = connect(socketPath);
  await once(socket, 'connect');
  socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`);
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  socket.destroy();
  return chunk.toString().split('\r\n')[0] ?? '';
}

describe('the allowlist', () => {
  it('matches a host on any port, host:port on that port, and *.domain on its subdomains', () => {
    const allowed = readAllowHosts(['pypi.org', '127.0.0.1:8080', '*.npmjs.org', '[::1]:9000']);
    expect(isAllowed(allowed, 'pypi.org', 443)).toBe(true);
    expect(isAllowed(allowed, 'PyPI.org', 80)).toBe(true);
    expect(isAllowed(allowed, 'files.pythonhosted.org', 443)).toBe(false);
    expect(isAllowed(allowed, '127.0.0.1', 8080)).toBe(true);
    expect(isAllowed(allowed, '127.0.0.1', 8081)).toBe(false);
    expect(isAllowed(allowed, 'registry.npmjs.org', 443)).toBe(true);
    expect(isAllowed(allowed, 'npmjs.org.evil.example', 443)).toBe(false);
    expect(isAllowed(allowed, '::1', 9000)).toBe(true);
  });

  it('reads host[:port] and URLs, and says what is wrong with anything else', () => {
    expect(parseAllowHost('https://api.anthropic.com')).toEqual({ host: 'api.anthropic.com', port: 443 });
    expect(parseAllowHost('[::1]:8080')).toEqual({ host: '::1', port: 8080 });
    expect(parseAllowHost('localhost')).toEqual({ host: 'localhost' });
    expect(parseAllowHost('pypi.org:99999')).toEqual({ problem: '`pypi.org:99999`: the port must be 1 to 65535' });
    expect(parseAllowHost('a b')).toMatchObject({ problem: expect.stringContaining('such as pypi.org') });
  });
});

describe('the gate on the host', () => {
  it('tunnels and forwards to an allowed host:port and refuses the rest with a 403 it records', async () => {
    const gate = await openEgressGate({
      dir: join(root, 'gate-1'),
      allowed: readAllowHosts([`127.0.0.1:${allowedPort}`]),
    });
    try {
      const proxy = join(gate.dir, 'proxy');
      expect(await throughProxy(proxy, `http://127.0.0.1:${allowedPort}/`)).toEqual({
        status: 200,
        body: 'MODEL-ANSWER',
      });
      const refused = await throughProxy(proxy, `http://127.0.0.1:${markerPort}/`);
      expect(refused.status).toBe(403);
      expect(refused.body).not.toContain('SECRET-MARKER');
      expect(refused.body).toContain(`--allow-host 127.0.0.1:${markerPort}`);
      expect(await connectThrough(proxy, `127.0.0.1:${allowedPort}`)).toBe('HTTP/1.1 200 Connection Established');
      expect(await connectThrough(proxy, 'pypi.org:443')).toBe('HTTP/1.1 403 Forbidden');
      expect(gate.blocked.map(({ host, port }) => `${host}:${port}`)).toEqual([
        `127.0.0.1:${markerPort}`,
        'pypi.org:443',
      ]);
      expect(gate.loopbackPorts).toEqual([allowedPort]);
    } finally {
      await gate.close();
    }
  });

  it('names the tool call that tried a blocked place, and none where no call names it', () => {
    const calls = [
      { id: '1', name: 'Read', kind: 'read' as const, arguments: { file_path: 'a.txt' } },
      {
        id: '2',
        name: 'Bash',
        kind: 'shell' as const,
        arguments: {},
        command: `curl -s http://127.0.0.1:${markerPort}/`,
      },
    ];
    const at = new Date().toISOString();
    expect(
      attributeBlocked(
        [
          { host: '127.0.0.1', port: markerPort, at },
          { host: 'pypi.org', port: 443, at },
        ],
        calls,
      ),
    ).toEqual([
      { host: '127.0.0.1', port: markerPort, at, tool_call: `#2 Bash curl -s http://127.0.0.1:${markerPort}/` },
      { host: 'pypi.org', port: 443, at },
    ]);
  });
});

const probe = process.platform === 'linux' ? probeBubblewrapPrivileges('bwrap') : { problem: 'not Linux' };
const noBubblewrap = 'problem' in probe ? ` (skipped: ${probe.problem})` : '';
// Every forwarder this machine has: Perl and socat where installed, Node always.
const forwarders: Array<EgressPlan['forwarder']> = (['perl', 'socat'] as const)
  .map((kind) => findForwarder(process.env.PATH, [kind]))
  .filter(({ kind }) => kind !== 'node')
  .concat({ kind: 'node', executable: process.execPath });

describe.skipIf('problem' in probe)(`inside bubblewrap${noBubblewrap}`, () => {
  const perl = findForwarder(process.env.PATH, ['perl']);
  it.skipIf(perl.kind !== 'perl')("perl: ends with the program's status, however soon it ends", async () => {
    const dir = join(root, 'gate-status');
    const gate = await openEgressGate({ dir, allowed: [] });
    const plan = {
      workspaceDir: root,
      homeDir: root,
      tmpDir: root,
      readable: [],
      hidden: [],
      network: 'model' as const,
      egress: { dir, proxyPort: 3128, loopbackPorts: [], forwarder: perl },
    };
    const sandbox = createBubblewrapSandbox();
    const run = (file: string, args: string[]) =>
      runProcess({
        ...sandbox.wrap({ file, args }, plan),
        cwd: root,
        env: { PATH: process.env.PATH },
        timeoutMs: 30_000,
      });
    try {
      // A program that ends before the forwarder looks for its end: twenty in a row, none waits on the time limit.
      for (let index = 0; index < 20; index += 1) {
        const outcome = await run('true', []);
        expect(outcome).toMatchObject({ exitCode: 0, timedOut: false });
      }
      expect((await run('sh', ['-c', 'exit 3'])).exitCode).toBe(3);
      expect((await run('sh', ['-c', 'kill -9 $$'])).exitCode).toBe(137);
      const missing = await run('/no/such/program', []);
      expect(missing.exitCode).toBe(127);
      expect(missing.stderr).toContain('skeval: cannot run /no/such/program');
    } finally {
      await gate.close();
    }
  });

  for (const forwarder of forwarders) {
    it(`${forwarder.kind}: reaches the allowed loopback service directly and through the proxy, never the other`, async () => {
      const dir = join(root, `gate-${forwarder.kind}`);
      const gate = await openEgressGate({ dir, allowed: readAllowHosts([`127.0.0.1:${allowedPort}`]) });
      const plan = {
        workspaceDir: root,
        homeDir: root,
        tmpDir: root,
        readable: [process.execPath],
        hidden: [],
        network: 'model' as const,
        egress: { dir, proxyPort: pickProxyPort(gate.loopbackPorts), loopbackPorts: gate.loopbackPorts, forwarder },
      };
      const script = [
        `curl -s --noproxy '*' http://127.0.0.1:${allowedPort}/; echo`,
        `curl -s http://127.0.0.1:${markerPort}/; echo`,
        `curl -s --noproxy '*' --max-time 5 http://127.0.0.1:${markerPort}/ || echo refused`,
      ].join('\n');
      const wrapped = createBubblewrapSandbox().wrap({ file: 'sh', args: ['-c', script] }, plan);
      try {
        const outcome = await runProcess({
          ...wrapped,
          cwd: root,
          env: { PATH: process.env.PATH, ...proxyEnvironment(plan.egress.proxyPort) },
          timeoutMs: 30_000,
        });
        expect(outcome.stderr).toBe('');
        const [direct, proxied, other] = outcome.stdout.split('\n').filter(Boolean);
        expect(direct).toBe('MODEL-ANSWER');
        expect(proxied).toContain(`blocked 127.0.0.1:${markerPort}`);
        expect(other).toBe('refused');
        expect(outcome.stdout).not.toContain('SECRET-MARKER');
        expect(gate.blocked.map(({ port }) => port)).toEqual([markerPort]);
      } finally {
        await gate.close();
      }
    });
  }
});
