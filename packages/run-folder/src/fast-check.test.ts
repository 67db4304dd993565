import { readFileSync } from 'node:fs';
import {
  benchmarkSchema,
  contextManifestSchema,
  feedbackSchema,
  gradingSchema,
  runSummarySchema,
  timingSchema,
  traceSchema,
} from '@skeval/schema';
import { toolSummarySchema } from '@skeval/schema/internal';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fastCheckOf } from './fast-check.js';

/** A case run's artifacts as Skeval wrote them (a run of the report benchmark's agent). */
const artifacts = {
  'grading.json': gradingSchema,
  'timing.json': timingSchema,
  'trace.json': traceSchema,
  'tool-summary.json': toolSummarySchema,
  'context-manifest.json': contextManifestSchema,
} satisfies Record<string, z.ZodType>;

const fixture = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/case-run/${file}`, import.meta.url), 'utf8'));

/** JSON with every object's keys sorted: equal for values equal but for the order of keys. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, entry: unknown) =>
    entry !== null && typeof entry === 'object' && !Array.isArray(entry)
      ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : entry,
  );

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Copies of `value`, each changed in one place: a key dropped, moved first or added, a leaf of another type or out of bounds. */
function mutationsOf(value: Json): Json[] {
  const out: Json[] = [];
  const leafs: Json[] = ['text', '', -1, 1.5, 0, 2 ** 60, true, null, [], {}];
  if (Array.isArray(value)) {
    out.push([], [...value, ...value.slice(0, 1)]);
    value.forEach((item, at) => {
      for (const changed of mutationsOf(item)) out.push(value.map((entry, index) => (index === at ? changed : entry)));
    });
    return out;
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    out.push({ ...value, extra: 1 }, { extra: 1, ...value });
    for (const key of keys) {
      const { [key]: dropped, ...rest } = value;
      out.push(rest, { [key]: dropped ?? null, ...rest });
      for (const changed of mutationsOf(dropped ?? null)) out.push({ ...value, [key]: changed });
    }
    return out;
  }
  return leafs.filter((leaf) => leaf !== value);
}

describe('fastCheckOf', () => {
  it("has a check for each of a case run's artifacts, summary.json and feedback.json", () => {
    const schemas = { ...artifacts, 'summary.json': runSummarySchema, 'feedback.json': feedbackSchema };
    for (const [file, schema] of Object.entries(schemas)) expect(fastCheckOf(schema), file).toBeTypeOf('function');
  });

  it('passes the artifacts Skeval wrote, as the schemas parse them, unchanged', () => {
    for (const [file, schema] of Object.entries(artifacts)) {
      const value = fixture(file);
      expect(fastCheckOf(schema)?.(value), file).toBe(true);
      expect(canonical(schema.parse(value)), file).toBe(canonical(value));
    }
  });

  it('passes a changed artifact only when its schema takes it and gives it back unchanged', () => {
    let passed = 0;
    let refused = 0;
    for (const [file, schema] of Object.entries(artifacts)) {
      const check = fastCheckOf(schema);
      for (const changed of mutationsOf(z.json().parse(fixture(file)))) {
        const parsed = schema.safeParse(changed);
        if (check?.(changed)) {
          passed += 1;
          expect(parsed.success, `${file}: ${JSON.stringify(changed).slice(0, 200)}`).toBe(true);
          expect(canonical(parsed.data)).toBe(canonical(changed));
        } else if (!parsed.success) refused += 1;
      }
    }
    // Both kinds occur: the comparison above is not of an empty set.
    expect(passed).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(1000);
  });

  it('leaves a key the schema would drop to the schema, and passes keys in any order', () => {
    const schema = z.object({ a: z.string(), b: z.number().int().optional() });
    const loose = z.looseObject({ a: z.string() });
    expect(fastCheckOf(schema)?.({ a: 'x', b: 1 })).toBe(true);
    expect(fastCheckOf(schema)?.({ b: 1, a: 'x' })).toBe(true);
    expect(fastCheckOf(schema)?.({ a: 'x', c: 1 })).toBe(false);
    expect(fastCheckOf(schema)?.({ a: 'x', b: 1.5 })).toBe(false);
    expect(fastCheckOf(loose)?.({ a: 'x', c: 1 })).toBe(true);
    expect(fastCheckOf(loose)?.({ c: 1, a: 'x' })).toBe(true);
    expect(fastCheckOf(schema)?.({ a: 'x' })).toBe(true);
    expect(fastCheckOf(schema)?.({ b: 1 })).toBe(false);
    expect(fastCheckOf(loose)?.({ c: 1 })).toBe(false);
    // JSON.parse makes `__proto__` a key of its own, which a copy would not keep.
    expect(fastCheckOf(loose)?.(JSON.parse('{"a":"x","__proto__":{"c":1}}'))).toBe(false);
    expect(fastCheckOf(schema)?.(JSON.parse('{"a":"x","__proto__":{"c":1}}'))).toBe(false);
  });

  it('applies a refinement, and refuses a value it does not hold for', () => {
    const row = gradingSchema.shape.assertion_results.element;
    const base = { text: 't', passed: true, evidence: 'e', status: 'pass', assertion: null };
    expect(fastCheckOf(row)?.(base)).toBe(true);
    expect(fastCheckOf(row)?.({ ...base, status: 'fail' })).toBe(false);
    expect(row.safeParse({ ...base, status: 'fail' }).success).toBe(false);
  });

  it('has no check for a schema with a part it does not know (a default, a transform)', () => {
    expect(fastCheckOf(z.object({ a: z.string().default('x') }))).toBeUndefined();
    expect(fastCheckOf(z.string().transform((text) => text.length))).toBeUndefined();
    expect(fastCheckOf(z.email())).toBeUndefined();
    expect(fastCheckOf(z.string().email())).toBeUndefined();
    expect(fastCheckOf(z.int32())).toBeUndefined();
    expect(fastCheckOf(z.int())?.(1.5)).toBe(false);
    expect(fastCheckOf(z.string().regex(/^a+$/))?.('ab')).toBe(false);
    expect(fastCheckOf(benchmarkSchema.pick({ metadata: true }))).toBeTypeOf('function');
  });
});
