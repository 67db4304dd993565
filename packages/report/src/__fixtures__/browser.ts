import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import chromiumLaunch from './chromium-launch.json' with { type: 'json' };

/**
 * Debian's Chromium, which CI installs (.ci/run). How it is launched headless is in
 * chromium-launch.json, which the report benchmarks and the screenshot script read too.
 */
export const chromiumPath = chromiumLaunch.executablePath;
/**
 * Why the browser tests cannot run here, as the end of their name, or '' when they can. In CI
 * they never skip: a missing Chromium fails them.
 */
export const chromiumSkipReason =
  existsSync(chromiumPath) || process.env.CI
    ? ''
    : ` (skipped: no Chromium at ${chromiumPath}; apt-get install chromium)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch(chromiumLaunch);
}

/** Where browser tests leave their screenshots (gitignored): `<repo>/test-artifacts/report/`. */
export const artifactsDir = new URL('../../../../test-artifacts/report/', import.meta.url).pathname;

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(artifactsDir, { recursive: true });
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
}

/** Serves one page at `/report.html` on 127.0.0.1 (a static report as a CI system would host it). */
export async function servePage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    if (request.url === '/report.html') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(html);
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address: AddressInfo | string | null = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/report.html`, server };
}

/**
 * Records every request the page makes besides loading itself (each address once), and refuses
 * each one (routing sees them before the network does), so a test can expect none.
 */
export async function recordRequests(page: Page, pageUrl: string): Promise<string[]> {
  const requests: string[] = [];
  const record = (url: string) => {
    if (url !== pageUrl && !requests.includes(url)) requests.push(url);
  };
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === pageUrl) return route.continue();
    record(url);
    return route.abort();
  });
  page.on('request', (request) => record(request.url()));
  return requests;
}

/** The built command line, which the review tests start as users do. */
export const cliPath = new URL('../../../../apps/cli/dist/cli.js', import.meta.url).pathname;

/** `skeval report <runDir> --serve` from the built command line in `cwd`, and the address it prints. */
export async function serveReview(runDir: string, cwd: string): Promise<{ child: ChildProcess; url: string }> {
  if (!existsSync(cliPath)) throw new Error(`${cliPath} is missing: run \`pnpm build\` first`);
  const child = spawn(process.execPath, [cliPath, 'report', runDir, '--serve'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\//.exec(output);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`skeval report --serve exited ${code}`)));
  });
  return { child, url };
}
