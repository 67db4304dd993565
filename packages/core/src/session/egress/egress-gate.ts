import { mkdir, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { AllowedHost } from '@skeval/schema';
import { isAllowed, isLoopback } from './allowlist.js';

/** A connection the allowlist refused. */
export interface BlockedConnection {
  host: string;
  port: number;
  /** When it was tried (ISO 8601). */
  at: string;
}

/**
 * The host side of a sandbox's network: an HTTP proxy (CONNECT and absolute-URI requests) that
 * lets through only what is on the list, and one plain pipe per loopback host:port on it (a
 * model served on 127.0.0.1), each on a unix socket in `dir`, which the sandbox binds in.
 */
export interface EgressGate {
  /** The folder holding the sockets: `proxy`, and one named after each loopback port. */
  dir: string;
  /** Loopback ports on the list, piped as they are (a base URL `http://127.0.0.1:<port>` works unchanged). */
  loopbackPorts: number[];
  /** Every connection refused so far. */
  blocked: BlockedConnection[];
  close(): Promise<void>;
}

/** The socket of the proxy in a gate's folder. */
export const proxySocketName = 'proxy';

export async function openEgressGate(options: { dir: string; allowed: readonly AllowedHost[] }): Promise<EgressGate> {
  await mkdir(options.dir, { recursive: true });
  const blocked: BlockedConnection[] = [];
  const refuse = (host: string, port: number) => blocked.push({ host, port, at: new Date().toISOString() });
  const loopbackPorts = [
    ...new Set(
      options.allowed.flatMap((entry) => (entry.port !== undefined && isLoopback(entry.host) ? [entry.port] : [])),
    ),
  ];
  const servers: Server[] = [createProxy(options.allowed, refuse)];
  for (const port of loopbackPorts) {
    const host = options.allowed.find((entry) => entry.port === port && isLoopback(entry.host))?.host ?? '127.0.0.1';
    servers.push(createServer((client) => pipeTo(client, connect(port, host === 'localhost' ? '127.0.0.1' : host))));
  }
  // Connections still open when the agent is done (a kept-alive model connection) are cut at close.
  const sockets = new Set<Socket>();
  for (const server of servers)
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
  const names = [proxySocketName, ...loopbackPorts.map(String)];
  await Promise.all(servers.map((server, index) => listen(server, join(options.dir, names[index] ?? ''))));
  return {
    dir: options.dir,
    loopbackPorts,
    blocked,
    close: async () => {
      const closed = Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
      for (const socket of sockets) socket.destroy();
      await closed;
      await rm(options.dir, { recursive: true, force: true });
    },
  };
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Both ways until either side ends; an error on one ends both. */
function pipeTo(client: Duplex, upstream: Socket): void {
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
  client.pipe(upstream).pipe(client);
}

/** What a refused client reads: who refused, and the fix. */
function refusal(host: string, port: number): string {
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return `Skeval's sandbox blocked ${target}: the agent may reach its model only (--network model). Allow it with --allow-host ${target}, or open the network with --network on.\n`;
}

function createProxy(allowed: readonly AllowedHost[], refuse: (host: string, port: number) => void): Server {
  const proxy = createHttpServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(incoming.url ?? '');
    } catch {
      outgoing.writeHead(400, { 'content-type': 'text/plain' }).end('Skeval proxy: send an absolute URL or CONNECT\n');
      return;
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    if (url.protocol !== 'http:' || !isAllowed(allowed, host, port)) {
      refuse(host, port);
      outgoing.writeHead(403, { 'content-type': 'text/plain' }).end(refusal(host, port));
      return;
    }
    const forwarded = request(
      { host, port, method: incoming.method, path: `${url.pathname}${url.search}`, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`Skeval proxy: ${host}:${port}: ${error.message}\n`);
    });
    incoming.pipe(forwarded);
  });
  proxy.on('connect', (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    const target = /^\[?([^\]]+?)\]?:(\d+)$/.exec(incoming.url ?? '');
    const host = target?.[1] ?? incoming.url ?? '';
    const port = Number(target?.[2] ?? 0);
    client.on('error', () => client.destroy());
    if (!target || !isAllowed(allowed, host, port)) {
      refuse(host, port);
      const body = refusal(host, port);
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return;
    }
    let open = false;
    const upstream = connect(port, host, () => {
      open = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      pipeTo(client, upstream);
    });
    upstream.on('error', () => {
      if (!open) client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n');
    });
  });
  return proxy;
}
