import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { openEgressGate } from '../session/egress/egress-gate.js';
import { type EgressPlan, pickProxyPort } from '../session/egress/forwarder.js';
import { runProcess } from '../session/run-process.js';
import type { Sandbox } from '../session/sandbox.js';

/** What the probe script prints last: whether each port answered, directly and through the proxy. */
const probeResultSchema = z.object({ direct: z.array(z.boolean()), proxied: z.array(z.boolean()) });

/** What the allowlist probe found: a stand-in model endpoint on 127.0.0.1 and another loopback port, tried from inside. */
export interface AllowlistProbe {
  /** The allowed port answered from inside the sandbox. */
  modelReached: boolean;
  /** Another port on 127.0.0.1 (a listening service) could not be reached, and the refusal was recorded. */
  loopbackBlocked: boolean;
  /** Why the probe could not run, or what it printed when it failed. */
  problem?: string;
}

/** Connects to each port on 127.0.0.1 from inside, directly and through the proxy; prints `{ direct: [..], proxied: [..] }`. */
const probeScript = `const net=require('net');const http=require('http');const [proxy,...ports]=process.argv.slice(1).map(Number);
const direct=(port)=>new Promise((done)=>{const s=net.connect(port,'127.0.0.1',()=>{s.destroy();done(true)});s.on('error',()=>done(false))});
const proxied=(port)=>new Promise((done)=>{http.get({host:'127.0.0.1',port:proxy,path:'http://127.0.0.1:'+port+'/'},(r)=>{r.resume();done(r.statusCode===200)}).on('error',()=>done(false))});
(async()=>{const out={direct:[],proxied:[]};for(const p of ports){out.direct.push(await direct(p));out.proxied.push(await proxied(p))}console.log(JSON.stringify(out))})();`;

async function listenOnLoopback(): Promise<{ port: number; close: () => void }> {
  const server = createServer((socket) =>
    socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok'),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, close: () => server.close() };
}

/**
 * Runs Node inside the sandbox with `--network model` and an allowlist of one stand-in model
 * endpoint on 127.0.0.1: it must reach that one, directly and through the proxy, and neither
 * way another listening port.
 */
export async function probeAllowlist(sandbox: Sandbox, forwarder: EgressPlan['forwarder']): Promise<AllowlistProbe> {
  const root = await mkdtemp(join(tmpdir(), 'skeval-doctor-'));
  const [model, other] = [await listenOnLoopback(), await listenOnLoopback()];
  const gate = await openEgressGate({ dir: join(root, 'n'), allowed: [{ host: '127.0.0.1', port: model.port }] });
  try {
    const egress = {
      dir: gate.dir,
      proxyPort: pickProxyPort(gate.loopbackPorts),
      loopbackPorts: gate.loopbackPorts,
      forwarder,
    };
    const plan = {
      workspaceDir: root,
      homeDir: root,
      tmpDir: root,
      readable: [process.execPath],
      hidden: [],
      network: 'model' as const,
      egress,
    };
    const args = ['-e', probeScript, String(egress.proxyPort), String(model.port), String(other.port)];
    const wrapped = sandbox.wrap({ file: process.execPath, args }, plan);
    const outcome = await runProcess({
      ...wrapped,
      cwd: root,
      env: { PATH: process.env.PATH ?? '' },
      timeoutMs: 30_000,
    });
    try {
      const found = probeResultSchema.parse(JSON.parse(outcome.stdout.trim().split('\n').at(-1) ?? ''));
      const refused = gate.blocked.some((entry) => entry.port === other.port);
      return {
        modelReached: found.direct[0] === true && found.proxied[0] === true,
        loopbackBlocked: found.direct[1] === false && found.proxied[1] === false && refused,
      };
    } catch {
      const printed = `${outcome.startError ?? ''} ${outcome.stderr} ${outcome.stdout}`.trim().slice(0, 300);
      return { modelReached: false, loopbackBlocked: false, problem: `the probe printed no result: ${printed}` };
    }
  } finally {
    model.close();
    other.close();
    await gate.close();
    await rm(root, { recursive: true, force: true });
  }
}
