import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ReportData } from '../report-data.js';
import { contentSecurityPolicy, embedJsonParts, renderHtml } from './render-html.js';

const hostile = '</script><script>alert(1)</script><!-- & \u2028\u2029 "quoted" \'single\'';
const data: ReportData = { version: 1, generatedAt: '2026-12-01T00:00:00.000Z', serve: false, runs: [] };
const assets = { script: 'document.title="x";', style: 'body{margin:0}' };
const sha = (text: string) => createHash('sha256').update(text).digest('base64');

describe('embedJsonParts', () => {
  it('writes no character that could end or confuse a script element, and reads back unchanged', () => {
    const embedded = [...embedJsonParts({ text: hostile })].flat().join('');
    expect(embedded).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(embedded)).toEqual({ text: hostile });
  });

  it('escapes each such character when it is the only one in its part, in a key or a value', () => {
    for (const character of ['<', '>', '&', '\u2028', '\u2029']) {
      const escaped = `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
      const value = { before: 'x'.repeat(70_000), text: `a${character}b`, [`key${character}`]: 1, after: 'y' };
      const parts = [...embedJsonParts(value)].flat();
      expect(parts).toContain(`"a${escaped}b"`);
      expect(parts).toContain(`,"key${escaped}":`);
      expect(parts.join('')).not.toContain(character);
      expect(JSON.parse(parts.join(''))).toEqual(value);
    }
  });

  it("gives a thousand case runs' data in parts, joined the JSON of the whole, escaped", () => {
    const caseRun = (at: number) => ({ reviewId: `r${at}`, response: `${hostile} ${'é…'.repeat(at % 7)}`, n: at });
    const cases = Array.from({ length: 1000 }, (_, at) => ({ id: String(at), runs: [caseRun(at), caseRun(at + 1)] }));
    const value = {
      ...data,
      runs: [
        { key: 'r0', cases },
        { key: 'r1', cases, problems: [] },
      ],
    };
    const chunks = [...embedJsonParts(value)].flat();
    const whole = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(whole / 1000);
    const escaped = JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (character) => {
      return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
    expect(chunks.join('')).toBe(escaped);
  });
});

describe('renderHtml', () => {
  it('holds the data in one inert JSON element, whatever the agent wrote', () => {
    const html = renderHtml({ ...data, runs: [] }, assets);
    const withHostile = renderHtml({ ...data, generatedAt: hostile }, assets);
    expect(withHostile.match(/<\/script>/g)?.length).toBe(html.match(/<\/script>/g)?.length);
    expect(withHostile).toContain('<script type="application/json" id="skeval-report-data">');
    expect(withHostile).not.toContain('<!--');
  });

  it('allows only its own script and style, by hash, and no request anywhere', () => {
    const policy = contentSecurityPolicy(assets, { serve: false });
    expect(policy).toBe(
      `default-src 'none'; script-src 'sha256-${sha(assets.script)}'; style-src 'sha256-${sha(assets.style)}'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(renderHtml(data, assets)).toContain(`<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  });

  it('lets a served page post to its own server, and nowhere else', () => {
    expect(contentSecurityPolicy(assets, { serve: true })).toContain("connect-src 'self'");
    expect(contentSecurityPolicy(assets, { serve: false })).not.toContain('connect-src');
  });
});
