import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CollectReportOptions, collectReport } from '../collect/collect-report.js';
import { contentSecurityPolicy, renderHtml } from '../html/render-html.js';
import { loadUiAssets } from '../ui-assets.js';
import { checkLocalRequest, sendJson } from './local-request.js';
import { saveFeedback, servedReportOf } from './save-feedback.js';

export interface ServeReportOptions extends Omit<CollectReportOptions, 'serve'> {
  /** Stops the server. */
  signal?: AbortSignal;
}

export interface ReportServer {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  runDirs: string[];
  /** Resolves once the server has stopped (after `close()` or the signal). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** What the server answers, by path: the page, and the feedback it saves. */
interface Routes {
  page(response: ServerResponse): Promise<void>;
  saveFeedback(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/**
 * Serves the report on 127.0.0.1 at a free port, for a reviewer to label verdicts and have them
 * saved. Two things are reachable: the page (`GET /`, made afresh from the run folders on each
 * load) and `POST /api/feedback`, which checks the body and writes the run folder's feedback.json
 * atomically. A request naming another host (DNS rebinding) or coming from another origin is
 * refused; nothing else answers.
 */
export async function serveReport(options: ServeReportOptions): Promise<ReportServer> {
  const cwd = options.cwd ?? process.cwd();
  const collectOptions = { ...options, cwd, serve: true };
  const assets = await loadUiAssets();
  let report = servedReportOf(await collectReport(collectOptions));
  const policy = `${contentSecurityPolicy(assets, { serve: true })}; frame-ancestors 'none'`;
  const routes: Routes = {
    async page(response) {
      report = servedReportOf(await collectReport(collectOptions));
      const body = renderHtml(report.data, assets);
      response.writeHead(200, {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': policy,
        'X-Frame-Options': 'DENY',
      });
      response.end(body);
    },
    saveFeedback: (request, response) => saveFeedback(request, response, { report, cwd }),
  };

  // node:http is loaded here, not with the package: loading it loads Node's fetch too, which a
  // report written to a file never uses.
  const { createServer } = await import('node:http');
  let port = 0;
  const server = createServer((request, response) => handleRequest(request, response, { port, routes }));
  port = await listenOnLocalhost(server);
  const { closed, close } = closerOf(server);
  if (options.signal?.aborted) await close();
  else options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: `http://127.0.0.1:${port}/`, runDirs: report.runDirs, closed, close };
}

/** Refuses what is not a local request, answers the two paths, and turns a failure into a 500. */
function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  { port, routes }: { port: number; routes: Routes },
): void {
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  const refusal = checkLocalRequest(request, port);
  if (refusal) {
    sendJson(response, 403, { error: refusal });
    return;
  }
  const path = (request.url ?? '/').split('?')[0];
  const handle = async () => {
    if (path === '/' || path === '/index.html') {
      if (request.method !== 'GET' && request.method !== 'HEAD') return sendJson(response, 405, { error: 'GET only' });
      return routes.page(response);
    }
    if (path === '/api/feedback') {
      if (request.method !== 'POST') return sendJson(response, 405, { error: 'POST only' });
      return routes.saveFeedback(request, response);
    }
    return sendJson(response, 404, { error: 'not found' });
  };
  handle().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (!response.headersSent) sendJson(response, 500, { error: message });
    else response.destroy();
  });
}

/** Listens on 127.0.0.1 at a port the system picks; resolves with that port. */
async function listenOnLocalhost(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address: AddressInfo | string | null = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** `closed` resolves when the server stops; `close()` stops it, dropping open connections, and waits for that. */
function closerOf(server: Server): { closed: Promise<void>; close(): Promise<void> } {
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  const close = async () => {
    if (!server.listening) return closed;
    server.close();
    server.closeAllConnections();
    return closed;
  };
  return { closed, close };
}
