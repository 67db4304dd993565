import type { IncomingMessage, ServerResponse } from 'node:http';

/** The largest review a page may post. */
const maxBodyBytes = 8 * 1024 * 1024;

/**
 * Why a request is refused, or `undefined` when it is the page talking to its own server: the
 * Host must be 127.0.0.1 or localhost at the server's port (a DNS-rebinding page names its own
 * host), and an Origin, when sent, the same; a browser's `Sec-Fetch-Site` must not say cross-site.
 */
export function checkLocalRequest(request: IncomingMessage, port: number): string | undefined {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const host = request.headers.host ?? '';
  if (!hosts.has(host)) return `refused: Host ${host || '(none)'} is not this server`;
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.has(origin.replace(/^http:\/\//, '')))
    return `refused: Origin ${origin} is not this server`;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `refused: a ${site} request`;
  return undefined;
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(body);
}

/**
 * A request's JSON body: only `application/json` (a cross-site form cannot send it without a
 * preflight this server never grants), at most 8 MiB.
 */
export async function readJsonBody(
  request: IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; error: string }> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, status: 415, error: 'send application/json' };
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxBodyBytes) return { ok: false, status: 413, error: `the body is over ${maxBodyBytes} bytes` };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > maxBodyBytes) return { ok: false, status: 413, error: `the body is over ${maxBodyBytes} bytes` };
    chunks.push(buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { ok: false, status: 400, error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}
