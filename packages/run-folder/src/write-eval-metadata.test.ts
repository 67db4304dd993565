import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalMetadataSchema } from '@skeval/schema';
import { describe, expect, it } from 'vitest';
import { writeEvalMetadata } from './eval-metadata.js';

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
