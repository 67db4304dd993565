import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalsFile } from '@skeval/evals';
import { describe, expect, it } from 'vitest';
import { assertionSourcesOf, sourceOfRow } from './assertion-sources.js';
import { buildPlan } from './build-plan.js';

const repoRoot = new URL('../../../../', import.meta.url).pathname;

/** The 1-based line and column of the `{` opening the object holding `needle`. */
function objectAt(text: string, needle: string) {
  const at = text.lastIndexOf('{', text.indexOf(needle));
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function sourcesOf(value: unknown) {
  const text = JSON.stringify(value, null, 2);
  const load = loadEvalsFile({ source: text, fileName: 'evals.json' });
  expect(load.errors).toEqual([]);
  return { text, sources: assertionSourcesOf('/repo/evals.json', load) };
}

const claim = (text: string) => ({ type: 'llm-judge', text });

describe('assertionSourcesOf', () => {
  it("locates each turn's assertions, then the case's own, in the order a case run grades them", () => {
    const { text, sources } = sourcesOf({
      evals: [
        { id: 'one', prompt: 'p', assertions: [claim('plain')] },
        {
          id: 'chat',
          prompt_sequence: [{ role: 'user', content: 'one', assertions: [claim('turn one')] }, 'two'],
          assertions: [claim('case claim')],
          expectations: [claim('an expectation')],
        },
      ],
    });
    expect(sources?.evalsPath).toBe('/repo/evals.json');
    expect(sources?.cases.one).toEqual([objectAt(text, '"plain"')]);
    expect(sources?.cases.chat).toEqual(
      ['"turn one"', '"case claim"', '"an expectation"'].map((needle) => objectAt(text, needle)),
    );
  });

  it('locates the cases of a top-level array, and turns written as `turns`', () => {
    const { text, sources } = sourcesOf([
      { id: 'a', turns: [{ prompt: 'x' }, { prompt: 'y', assertions: [claim('second turn')] }] },
    ]);
    expect(sources?.cases.a).toEqual([objectAt(text, '"second turn"')]);
  });

  it('gives no location when the rows do not line up with the case as written now', () => {
    const { sources } = sourcesOf({ evals: [{ id: 'one', prompt: 'p', assertions: [claim('plain')] }] });
    expect(sourceOfRow(sources, 'one', 1, 0)).toEqual(sources?.cases.one?.[0]);
    expect(sourceOfRow(sources, 'one', 2, 0)).toBeUndefined();
    expect(sourceOfRow(sources, 'gone', 1, 0)).toBeUndefined();
  });

  it('is undefined for a file that did not load', () => {
    expect(assertionSourcesOf('/x', loadEvalsFile({ source: '{', fileName: 'evals.json' }))).toBeUndefined();
  });

  it('is worked out when planning, and the plan keeps no positioned document for the rest of the run', async () => {
    const plan = await buildPlan({ path: join(repoRoot, 'examples/greeting') });
    const [planned] = plan.skills;
    const evalsPath = planned?.skill.evalsPath ?? '';
    const fresh = loadEvalsFile({ source: readFileSync(evalsPath, 'utf8'), fileName: evalsPath });
    expect(Object.keys(planned?.sources?.cases ?? {})).not.toHaveLength(0);
    expect(planned?.sources).toEqual(assertionSourcesOf(evalsPath, fresh));
    expect(planned?.skill.load.locate).toBeUndefined();
    expect(planned?.skill.load.evals?.cases).toBe(planned?.cases);
  });
});
