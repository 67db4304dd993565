import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { feedbackSchema } from '@skeval/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureRun } from '../__fixtures__/make-fixture-run.js';
import { type ReportServer, serveReport } from './serve-report.js';

let root: string;
let runDir: string;
let server: ReportServer;
let port: number;

beforeAll(async () => {
  ({ root, runDir } = await makeFixtureRun());
  server = await serveReport({ paths: [runDir], cwd: root });
  port = Number(new URL(server.url).port);
}, 60_000);
afterAll(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** A raw HTTP request, so the test sets Host and Origin as an attacker's page would. */
function send(options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: { host: `127.0.0.1:${port}`, ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

const review = (runId: string) => ({
  run: 'r0',
  feedback: {
    reviews: [{ run_id: runId, feedback: 'looks right', timestamp: '2026-12-01T10:00:00.000Z' }],
    status: 'in_progress',
  },
});
const post = (body: unknown, headers: Record<string, string> = {}) =>
  send({
    method: 'POST',
    path: '/api/feedback',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

describe('serveReport', () => {
  it('listens on 127.0.0.1 at a port the system chose', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(port).toBeGreaterThan(0);
  });

  it('serves the page with its policy as a header too, made for saving reviews', async () => {
    const page = await send({});
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toMatch(
      /^default-src 'none'; .*connect-src 'self'.*frame-ancestors 'none'$/,
    );
    expect(page.body).toContain('"serve":true');
  });

  it('answers nothing but the page and the feedback endpoint', async () => {
    for (const path of ['/summary.json', '/eval-greet/with_skill/run-1/grading.json', '/../../etc/passwd', '/api']) {
      expect((await send({ path })).status).toBe(404);
    }
    expect((await send({ method: 'POST' })).status).toBe(405);
    expect((await send({ path: '/api/feedback' })).status).toBe(405);
  });

  it('refuses a request naming another host (DNS rebinding) or coming from another origin', async () => {
    expect((await send({ headers: { host: `evil.example:${port}` } })).status).toBe(403);
    const cross = await post(review('eval-greet-with_skill-run-1'), { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    expect(JSON.parse(cross.body).error).toBe('refused: Origin http://evil.example is not this server');
    expect((await post(review('eval-greet-with_skill-run-1'), { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(existsSync(join(runDir, 'feedback.json'))).toBe(false);
  });

  it('takes only a JSON body in the shape of feedback.json, naming what is wrong', async () => {
    expect((await post('reviews=1', { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await post('{not json')).status).toBe(400);
    const wrong = await post({ run: 'r0', feedback: { reviews: [{ run_id: 'x' }], status: 'in_progress' } });
    expect(wrong.status).toBe(400);
    expect(JSON.parse(wrong.body).error).toMatch(/^feedback\.reviews\.0\.feedback: /);
    const extra = await post({ ...review('eval-greet-with_skill-run-1'), path: '/etc/passwd' });
    expect(extra.status).toBe(400);
    const unknown = await post(review('eval-nope-with_skill-run-9'));
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body).error).toContain('no case run eval-nope-with_skill-run-9');
    expect((await post({ ...review('eval-greet-with_skill-run-1'), run: 'r7' })).status).toBe(400);
    expect(existsSync(join(runDir, 'feedback.json'))).toBe(false);
  });

  it("writes the run folder's feedback.json from a valid review, and the page then shows it", async () => {
    const saved = await post(review('eval-greet-with_skill-run-1'), { origin: `http://localhost:${port}` });
    expect(saved.status).toBe(200);
    expect(JSON.parse(saved.body)).toEqual({ ok: true, path: 'runs/report-skill/fixture-run/feedback.json' });
    const written = feedbackSchema.parse(JSON.parse(await readFile(join(runDir, 'feedback.json'), 'utf8')));
    expect(written).toEqual(review('eval-greet-with_skill-run-1').feedback);
    expect((await send({})).body).toContain('looks right');
  });

  it('will not save over a feedback.json that does not read back', async () => {
    await writeFile(join(runDir, 'feedback.json'), '{"reviews": "hand-edited"}');
    const refused = await post(review('eval-greet-with_skill-run-1'));
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.body).error).toMatch(/^feedback\.json: .*move it away to save new reviews$/);
    expect(await readFile(join(runDir, 'feedback.json'), 'utf8')).toBe('{"reviews": "hand-edited"}');
    await rm(join(runDir, 'feedback.json'));
  });
});
