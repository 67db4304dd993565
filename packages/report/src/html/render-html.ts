import { createHash } from 'node:crypto';
import { jsonParts } from '@skeval/run-folder/internal';
import { dataElementId, type ReportData } from '../report-data.js';

/** The page's compiled script and style sheet (see build-ui.ts). */
export interface UiAssets {
  script: string;
  style: string;
}

/**
 * JSON that can sit inside a `<script>` element whatever the strings hold, in parts: `<`, `>` and
 * `&` are written as `\u003c`, `\u003e`, `\u0026` (so no `</script>` or `<!--` can appear), and
 * U+2028 and U+2029 escaped too; `JSON.parse` reads the parts joined back unchanged. The page
 * data is walked down to each case run (`jsonParts`), so no string of the whole 8 MB is made:
 * made whole, it was a copy of 16 MB (the data holds characters beyond Latin-1, so two bytes
 * each) that a cold process pays in page faults. Each part is escaped on its own, and only
 * where it holds such a character: the structure's parts (`,"cases":`) never do.
 */
export function* embedJsonParts(value: unknown): Generator<string[]> {
  // The data, its runs, a run, its cases, a case, its case runs: six levels down to one case run.
  for (const batch of jsonParts(value, 6, { compact: true })) {
    for (let at = 0; at < batch.length; at += 1) {
      const part = batch[at] ?? '';
      if (holdsUnsafe(part)) batch[at] = part.replace(unsafeInScript, escapeInScript);
    }
    yield batch;
  }
}

/**
 * Whether a part holds a character to escape: five searches for one character each, which skip
 * through the text, are a third of the time of the regular expression's scan over a part with none.
 */
const holdsUnsafe = (part: string) =>
  part.includes('<') || part.includes('>') || part.includes('&') || part.includes('\u2028') || part.includes('\u2029');

const unsafeInScript = /[<>&\u2028\u2029]/g;

/** The character's `\uXXXX` escape, which JSON reads back as the character itself. */
const escapeInScript = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The page's Content-Security-Policy: nothing loads from anywhere (`default-src 'none'`), only
 * the page's own script and style run (by hash), images only from `data:` URLs, no forms, no
 * base URL. A served page may also post reviews to the server it came from.
 */
export function contentSecurityPolicy(assets: UiAssets, options: { serve: boolean }): string {
  return [
    "default-src 'none'",
    `script-src ${hashOf(assets.script)}`,
    `style-src ${hashOf(assets.style)}`,
    'img-src data:',
    ...(options.serve ? ["connect-src 'self'"] : []),
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

function titleOf(data: ReportData): string {
  const skills = [...new Set(data.runs.map((run) => run.skill))];
  return `Skeval report: ${skills.length <= 3 ? skills.join(', ') : `${skills.length} skills`}`;
}

/** The whole page: one file, everything inline, readable offline. */
export function renderHtml(data: ReportData, assets: UiAssets): string {
  return [...renderHtmlParts(data, assets)].flat().join('');
}

/**
 * The page in the parts it is made of (`renderHtml` joined), made as they are asked for: a
 * writer writes each batch of the data before the next is made, so the page is never one
 * string, nor its 32,000 parts all held at once (held, they outlived the young generation and
 * were copied by every scavenge until the page was written).
 */
export function* renderHtmlParts(data: ReportData, assets: UiAssets): Generator<string | string[]> {
  const head = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(assets, { serve: data.serve }))}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="skeval report">
<title>${escapeHtml(titleOf(data))}</title>
<style>${assets.style}</style>
</head>
<body>
<noscript>This report is drawn by its own inline script; allow scripts for this file to read it.</noscript>
<div id="app"></div>
<script type="application/json" id="${dataElementId}">`;
  const tail = `</script>
<script>${assets.script}</script>
</body>
</html>
`;
  yield head;
  yield* embedJsonParts(data);
  yield tail;
}
