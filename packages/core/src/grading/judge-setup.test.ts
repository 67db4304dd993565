import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveJudgeSetup } from './judge-setup.js';

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'skeval-judge-setup-'));
  await mkdir(join(home, '.pi', 'agent'), { recursive: true });
  // Pi's own provider, defined in its models.json: not one Skeval can build a judge on.
  await writeFile(
    join(home, '.pi', 'agent', 'settings.json'),
    JSON.stringify({ defaultProvider: 'my-gateway', defaultModel: 'big-model' }),
  );
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('resolveJudgeSetup', () => {
  it('does not stop a run on a Pi default provider Skeval cannot use: judged claims skip, with a hint', () => {
    const setup = resolveJudgeSetup({ cwd: home, env: { HOME: home } });
    expect(setup.model).toBeUndefined();
    expect(setup.skipReason).toMatch(
      /^the judge my-gateway:big-model \(from .*settings\.json\) cannot be used: .*pass --judge provider:model/,
    );
  });

  it('refuses a --judge it cannot build', () => {
    expect(() => resolveJudgeSetup({ judge: 'my-gateway:big-model', cwd: home, env: { HOME: home } })).toThrow();
  });
});
