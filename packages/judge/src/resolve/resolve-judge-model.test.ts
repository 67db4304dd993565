import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveJudgeModel } from './resolve-judge-model.js';

let root: string;
let project: string;
let home: string;
let bare: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skeval-resolve-'));
  project = join(root, 'project');
  home = join(root, 'home');
  bare = join(root, 'bare');
  await mkdir(join(project, '.pi'), { recursive: true });
  await mkdir(join(project, 'skills', 'greeting'), { recursive: true });
  await mkdir(join(home, '.pi', 'agent'), { recursive: true });
  await mkdir(bare, { recursive: true });
  await writeFile(
    join(project, '.pi', 'settings.json'),
    JSON.stringify({ defaultProvider: 'openai', defaultModel: 'gpt-5' }),
  );
  await writeFile(
    join(home, '.pi', 'agent', 'settings.json'),
    JSON.stringify({ defaultProvider: 'anthropic', defaultModel: 'claude-haiku-4-5' }),
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('resolveJudgeModel', () => {
  it('takes the flag first, then the config', () => {
    expect(resolveJudgeModel({ flag: 'ollama:llama3.1', config: 'openai:gpt-5', cwd: project, home, env: {} })).toEqual(
      { spec: 'ollama:llama3.1', source: '--judge' },
    );
    expect(resolveJudgeModel({ config: 'openai:gpt-5', cwd: project, home, env: {} })).toEqual({
      spec: 'openai:gpt-5',
      source: 'the Skeval config',
    });
  });

  it("then the project's .pi/settings.json, found walking up", () => {
    expect(
      resolveJudgeModel({ cwd: join(project, 'skills', 'greeting'), home, env: { ANTHROPIC_API_KEY: 'k' } }),
    ).toEqual({ spec: 'openai:gpt-5', source: join(project, '.pi', 'settings.json') });
  });

  it('then ~/.pi/agent/settings.json', () => {
    expect(resolveJudgeModel({ cwd: bare, home, env: {} })).toEqual({
      spec: 'anthropic:claude-haiku-4-5',
      source: join(home, '.pi', 'agent', 'settings.json'),
    });
  });

  it('then whichever provider key is set', () => {
    expect(resolveJudgeModel({ cwd: bare, home: bare, env: { OPENAI_API_KEY: 'k' } })).toEqual({
      spec: 'openai:gpt-5-mini',
      source: 'OPENAI_API_KEY',
    });
    expect(
      resolveJudgeModel({ cwd: bare, home: bare, env: { ANTHROPIC_API_KEY: 'k', OPENAI_API_KEY: 'k' } }),
    ).toMatchObject({ spec: 'anthropic:claude-sonnet-4-6' });
  });

  it('says how to configure a judge when nothing resolves', () => {
    const resolution = resolveJudgeModel({ cwd: bare, home: bare, env: {} });
    expect(resolution.spec).toBeUndefined();
    expect('hint' in resolution && resolution.hint).toContain(
      'set ANTHROPIC_API_KEY or OPENAI_API_KEY, or pass --judge provider:model',
    );
  });
});
