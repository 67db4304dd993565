import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { feedbackFileName, readFeedback, writeFeedback } from '@skeval/run-folder';
import { assertionReviewSchema, feedbackSchema, runReviewSchema } from '@skeval/schema';
import * as z from 'zod';
import { type CollectReportOptions, collectReport } from '../collect/collect-report.js';
import { contentSecurityPolicy, renderHtml } from '../html/render-html.js';
import type { ReportData } from '../report-data.js';
import { loadUiAssets } from '../ui-assets.js';
import { checkLocalRequest, readJsonBody, sendJson } from './local-request.js';

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

/**
 * What the page posts: the run (by its key in the page, never a path) and its whole
 * feedback.json, with no key the page does not write (feedback.json is read more leniently).
 */
const feedbackPostSchema = z.strictObject({
  run: z.string().max(20),
  feedback: z.strictObject({
    reviews: z.array(z.strictObject(runReviewSchema.shape)).max(100_000),
    status: feedbackSchema.shape.status,
    skeval: z
      .strictObject({
        version: z.literal(1),
        labels: z.array(z.strictObject(assertionReviewSchema.shape)).max(1_000_000),
      })
      .optional(),
  }),
});

const reviewIdsOf = (data: ReportData) =>
  new Map(data.runs.map((run) => [run.key, new Set(run.cases.flatMap((c) => c.runs.map((r) => r.reviewId)))]));

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
  let collected = await collectReport(collectOptions);
  let knownIds = reviewIdsOf(collected.data);
  const policy = `${contentSecurityPolicy(assets, { serve: true })}; frame-ancestors 'none'`;

  const page = async (response: ServerResponse) => {
    collected = await collectReport(collectOptions);
    knownIds = reviewIdsOf(collected.data);
    const body = renderHtml(collected.data, assets);
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': policy,
      'X-Frame-Options': 'DENY',
    });
    response.end(body);
  };

  const saveFeedback = async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readJsonBody(request);
    if (!body.ok) return sendJson(response, body.status, { error: body.error });
    const parsed = feedbackPostSchema.safeParse(body.value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join('.') : 'the body';
      return sendJson(response, 400, { error: `${where}: ${issue?.message ?? 'not a feedback document'}` });
    }
    const { run, feedback } = parsed.data;
    const index = collected.data.runs.findIndex((entry) => entry.key === run);
    const runDir = collected.runDirs[index];
    const ids = knownIds.get(run);
    if (runDir === undefined || ids === undefined)
      return sendJson(response, 400, { error: `no run ${run} in this report` });
    const named = [
      ...feedback.reviews.map((review) => review.run_id),
      ...(feedback.skeval?.labels ?? []).map((label) => label.run_id),
    ];
    const unknown = [...new Set(named.filter((id) => !ids.has(id)))];
    if (unknown.length) {
      return sendJson(response, 400, {
        error: `no case run ${unknown.slice(0, 3).join(', ')} in ${relative(cwd, runDir) || runDir}`,
      });
    }
    const existing = await readFeedback(runDir);
    if (existing.status === 'invalid') {
      return sendJson(response, 409, { error: `${existing.problem}; move it away to save new reviews` });
    }
    await writeFeedback(runDir, feedback);
    return sendJson(response, 200, { ok: true, path: relative(cwd, join(runDir, feedbackFileName)) });
  };

  let port = 0;
  const server = createServer((request, response) => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    const refusal = checkLocalRequest(request, port);
    if (refusal) return sendJson(response, 403, { error: refusal });
    const path = (request.url ?? '/').split('?')[0];
    const handle = async () => {
      if (path === '/' || path === '/index.html') {
        if (request.method !== 'GET' && request.method !== 'HEAD')
          return sendJson(response, 405, { error: 'GET only' });
        return page(response);
      }
      if (path === '/api/feedback') {
        if (request.method !== 'POST') return sendJson(response, 405, { error: 'POST only' });
        return saveFeedback(request, response);
      }
      return sendJson(response, 404, { error: 'not found' });
    };
    handle().catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      if (!response.headersSent) sendJson(response, 500, { error: message });
      else response.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address: AddressInfo | string | null = server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;

  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  const close = async () => {
    if (!server.listening) return closed;
    server.close();
    server.closeAllConnections();
    return closed;
  };
  if (options.signal?.aborted) await close();
  else options.signal?.addEventListener('abort', () => void close(), { once: true });
  return { url: `http://127.0.0.1:${port}/`, runDirs: collected.runDirs, closed, close };
}
