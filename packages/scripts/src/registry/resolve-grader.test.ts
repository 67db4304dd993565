import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraderPayload } from '../custom/grader-payload.js';
import { graderExists } from './grader-exists.js';
import { builtInGraderNames } from './names.js';
import { builtInGraders } from './registry.js';
import { resolveGrader } from './resolve-grader.js';
import { runGrader } from './run-grader.js';

const project = new URL('../__fixtures__/project/', import.meta.url).pathname;
const nested = join(project, '.skeval/graders/helpers');
let elsewhere: string;
beforeAll(async () => {
  elsewhere = await mkdtemp(join(tmpdir(), 'skeval-resolve-'));
});
afterAll(() => rm(elsewhere, { recursive: true, force: true }));

describe('resolveGrader', () => {
  it('finds a built-in by name, from any folder', () => {
    const resolved = resolveGrader('output-contains', { from: elsewhere });
    expect(resolved.kind).toBe('built-in');
    expect(resolved.kind === 'built-in' && resolved.grader.name).toBe('output-contains');
  });

  it('finds a custom grader walking up from the folder, .agentv/graders included', () => {
    expect(resolveGrader('v4', { from: nested })).toEqual({
      kind: 'custom',
      name: 'v4',
      file: join(project, '.skeval/graders/v4.ts'),
    });
    expect(resolveGrader('self-running', { from: nested })).toMatchObject({ kind: 'custom' });
  });

  it('names the custom graders that exist when a name resolves to nothing', () => {
    const missing = resolveGrader('no-such-grader', { from: nested });
    expect(missing.kind).toBe('missing');
    expect(missing.kind === 'missing' && missing.custom).toContain('v4');
    expect(missing.kind === 'missing' && missing.message).toMatch(
      /^no grader named `no-such-grader`: not built in, .*v4/,
    );
  });

  it('lists the built-ins when the name is one only a built-in could have', () => {
    const missing = resolveGrader('output-contain', { from: elsewhere });
    expect(missing.kind === 'missing' && missing.message).toContain('they are: file-exists, regex-match');
  });
});

describe('graderExists', () => {
  it('knows the names of the registry, in its order, without loading it', () => {
    expect([...builtInGraderNames]).toEqual([...builtInGraders.keys()]);
  });

  it('says what resolveGrader says of a built-in, a custom grader, a near miss and a missing name', () => {
    const names = ['output-contains', 'file-exists', 'v4', 'self-running', 'output-contain', 'no-such-grader'];
    const found = names.map((name) => graderExists(name, { from: nested }));
    expect(found).toEqual([true, true, true, true, false, false]);
    expect(found).toEqual(names.map((name) => resolveGrader(name, { from: nested }).kind !== 'missing'));
  });

  it('finds no custom grader from a folder with none above it', () => {
    expect(graderExists('v4', { from: elsewhere })).toBe(false);
    expect(graderExists('safety-no-network', { from: elsewhere })).toBe(true);
  });
});

describe('runGrader', () => {
  const payload = buildGraderPayload({
    prompt: 'q',
    response: 'The capital of France is Paris.',
    config: { value: 'Paris' },
  });

  it('grades with a built-in and with a custom grader from the same payload', async () => {
    const builtIn = await runGrader(resolveGrader('output-contains', { from: nested }), payload);
    expect(builtIn.score).toBe(1);
    const custom = await runGrader(resolveGrader('echo-payload', { from: nested }), payload);
    expect(JSON.parse(custom.assertions[0]?.evidence ?? '{}')).toEqual(payload);
  });

  it('refuses a missing grader with the resolver message', async () => {
    const missing = resolveGrader('no-such-grader', { from: nested });
    await expect(runGrader(missing, payload)).rejects.toMatchObject({ code: 'usage' });
  });
});
