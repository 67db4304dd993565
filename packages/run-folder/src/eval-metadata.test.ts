import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalMetadataSchema } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { integerEvalIds, writeEvalMetadata } from './eval-metadata.js';

const idsOf = (ids: string[]) => integerEvalIds(ids.map((id) => ({ id })));

describe("eval_metadata.json's integer eval_id", () => {
  it('keeps the number of an integer id, written as a number or as a string of one', () => {
    expect(Object.fromEntries(idsOf(['1', '10', '-3', '0']))).toEqual({ '1': 1, '10': 10, '-3': -3, '0': 0 });
  });

  it('gives every other id a six-digit number that depends on the id alone', () => {
    const alone = idsOf(['named-ada']).get('named-ada');
    expect(alone).toBeGreaterThanOrEqual(100_000);
    expect(alone).toBeLessThan(1_000_000);
    // The same in any file and any order: it does not come from the case's position.
    expect(idsOf(['1', 'x', 'named-ada', '007']).get('named-ada')).toBe(alone);
    expect(idsOf(['007', 'named-ada', 'x', '1']).get('named-ada')).toBe(alone);
    // `007` is not written as an integer: it is not 7, so it cannot meet a case 7.
    expect(idsOf(['7', '007']).get('007')).not.toBe(7);
  });

  it('never gives two cases one number, even when a hash meets an integer id or another hash', () => {
    const taken = idsOf(['named-ada']).get('named-ada') ?? 0;
    const ids = idsOf([String(taken), 'named-ada']);
    expect(ids.get(String(taken))).toBe(taken);
    expect(ids.get('named-ada')).not.toBe(taken);
    const many = Array.from({ length: 3000 }, (_, index) => `case-${index}`);
    const numbers = idsOf([...many, ...Array.from({ length: 200 }, (_, index) => String(100_000 + index))]);
    expect(new Set(numbers.values()).size).toBe(3200);
  });
});

describe('eval_metadata.json', () => {
  it('records what a viewer shows of a case as it was run: its expected output and description, when it has them', async () => {
    const runDir = await mkdtemp(join(tmpdir(), 'skeval-eval-metadata-'));
    try {
      const cases = [
        {
          id: 'greet',
          name: 'greet',
          prompt: 'Write a greeting for Ada.',
          assertions: [{ text: 'It greets Ada' }],
          expectedOutput: 'greeting.txt holds a greeting for Ada',
          description: 'the plain case',
        },
        { id: '2', name: '2', prompt: 'Say nothing.', assertions: [] },
      ];
      const folders = cases.map((evalCase) => ({
        folder: `eval-${evalCase.id}`,
        dir: join(runDir, `eval-${evalCase.id}`),
        arm: 'with_skill' as const,
        runNumber: 1,
      }));
      for (const folder of folders) await mkdir(folder.dir);
      await writeEvalMetadata({ runDir, cases, folders });
      const read = async (id: string) =>
        evalMetadataSchema.parse(JSON.parse(await readFile(join(runDir, `eval-${id}`, 'eval_metadata.json'), 'utf8')));
      expect(await read('greet')).toMatchObject({
        eval_name: 'greet',
        expected_output: 'greeting.txt holds a greeting for Ada',
        description: 'the plain case',
      });
      const plain = await read('2');
      expect(['expected_output' in plain, 'description' in plain]).toEqual([false, false]);
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  });
});
