import { describe, expect, it } from 'vitest';
import { generateMutants, type Mutant, mutantKinds } from './mutants.js';

const table = '| region | total |\n|---|---|\n| north | 120 |\n| south | 80 |\n';
const json = '{\n  "region": "north",\n  "total": 120\n}\n';
const reference = {
  caseId: '1',
  prompt: 'Sum sales.csv into r.md.',
  response: 'Wrote r.md: north 120.',
  files: new Map([
    ['r.md', Buffer.from(table)],
    ['totals.json', Buffer.from(json)],
    ['logo.png', Buffer.from([0x89, 0x50, 0x00, 0x01])],
  ]),
  spans: [{ assertion: 2, target: 'outputs/r.md', index: table.indexOf('| north'), length: '| north | 120 |'.length }],
};

const mutants = generateMutants(reference);
const byId = (id: string): Mutant => {
  const found = mutants.find((mutant) => mutant.id === id);
  if (!found) throw new Error(`no mutant ${id} among ${mutants.map((mutant) => mutant.id).join(', ')}`);
  return found;
};
const fileText = (mutant: Mutant, path: string) => mutant.files.get(path)?.toString('utf8');

describe('generateMutants', () => {
  it('deletes each output file, binary ones included, and touches nothing else', () => {
    const deleted = byId('file-deleted:outputs/logo.png');
    expect(deleted.files.has('logo.png')).toBe(false);
    expect(fileText(deleted, 'r.md')).toBe(table);
    expect(deleted.response).toBe(reference.response);
    expect(byId('file-deleted:outputs/r.md').files.has('r.md')).toBe(false);
  });

  it('never edits a binary file: it is only deleted', () => {
    expect(mutants.filter((mutant) => mutant.target === 'outputs/logo.png').map((mutant) => mutant.kind)).toEqual([
      'file-deleted',
    ]);
  });

  it('empties a file', () => {
    expect(fileText(byId('file-emptied:outputs/r.md'), 'r.md')).toBe('');
  });

  it('truncates a file to its first half', () => {
    expect(fileText(byId('file-truncated:outputs/r.md'), 'r.md')).toBe(table.slice(0, 30));
  });

  it('shuffles the lines of a file in a seeded order that is the same on every machine', () => {
    const shuffled = fileText(byId('lines-shuffled:outputs/r.md'), 'r.md') ?? '';
    expect(shuffled).not.toBe(table);
    expect(shuffled.split('\n').sort()).toEqual(table.split('\n').sort());
    expect(shuffled).toBe('|---|---|\n| south | 80 |\n| north | 120 |\n| region | total |\n');
  });

  it('changes each number by one and ten times over, in files and in the response', () => {
    expect(fileText(byId('number-off-by-one:outputs/r.md#1'), 'r.md')).toBe(table.replace('120', '121'));
    expect(fileText(byId('number-times-ten:outputs/r.md#2'), 'r.md')).toBe(table.replace('80', '800'));
    expect(byId('number-off-by-one:response.md#1').response).toBe('Wrote r.md: north 121.');
    expect(byId('number-times-ten:response.md#1').response).toBe('Wrote r.md: north 1200.');
  });

  it('keeps the decimals of a number it changes and leaves numbers inside names alone', () => {
    const [off, ten, ...rest] = generateMutants({
      caseId: 'x',
      prompt: 'p',
      response: 'h1 costs 3.50',
      files: new Map(),
    }).filter((mutant) => mutant.kind.startsWith('number-'));
    expect([off?.response, ten?.response, rest]).toEqual(['h1 costs 4.50', 'h1 costs 35.00', []]);
  });

  it('removes the span a content assertion matched', () => {
    expect(fileText(byId('span-removed:outputs/r.md#a3'), 'r.md')).toBe(
      '| region | total |\n|---|---|\n\n| south | 80 |\n',
    );
  });

  it('empties the response, and replaces it with the prompt', () => {
    expect(byId('response-emptied:response.md').response).toBe('');
    expect(byId('response-is-prompt:response.md').response).toBe(reference.prompt);
    expect(fileText(byId('response-emptied:response.md'), 'r.md')).toBe(table);
  });

  it('drops each top-level key of a JSON file, keeping its indentation', () => {
    expect(fileText(byId('json-key-dropped:outputs/totals.json#total'), 'totals.json')).toBe(
      '{\n  "region": "north"\n}\n',
    );
    expect(fileText(byId('json-key-dropped:outputs/totals.json#region'), 'totals.json')).toBe('{\n  "total": 120\n}\n');
  });

  it('drops each column of a Markdown table', () => {
    expect(fileText(byId('table-column-dropped:outputs/r.md#t1c2'), 'r.md')).toBe(
      '| region |\n|---|\n| north |\n| south |\n',
    );
    expect(fileText(byId('table-column-dropped:outputs/r.md#t1c1'), 'r.md')).toBe(
      '| total |\n|---|\n| 120 |\n| 80 |\n',
    );
  });

  it('makes every kind from the small reference, with ids that are unique and the same on every run', () => {
    expect(new Set(mutants.map((mutant) => mutant.kind))).toEqual(new Set(mutantKinds));
    expect(new Set(mutants.map((mutant) => mutant.id)).size).toBe(mutants.length);
    const again = generateMutants(reference);
    expect(
      again.map((mutant) => [
        mutant.id,
        mutant.response,
        [...mutant.files].map(([path, bytes]) => [path, bytes.toString('hex')]),
      ]),
    ).toEqual(
      mutants.map((mutant) => [
        mutant.id,
        mutant.response,
        [...mutant.files].map(([path, bytes]) => [path, bytes.toString('hex')]),
      ]),
    );
  });

  it('leaves out a mutant that would equal the reference or an earlier mutant', () => {
    const few = generateMutants({
      caseId: 'y',
      prompt: 'same',
      response: 'same',
      files: new Map([['a.txt', Buffer.from('x')]]),
    });
    expect(few.map((mutant) => mutant.id)).toEqual([
      'file-deleted:outputs/a.txt',
      'file-emptied:outputs/a.txt',
      'response-emptied:response.md',
    ]);
  });
});
