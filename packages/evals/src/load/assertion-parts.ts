import {
  assertionLabelFields,
  type IntentKind,
  intentSchemas,
  type NormalizedAssertion,
  proseFields,
} from '@skeval/schema/internal';
import type { z } from 'zod';
import { type IssueSink, isPlainObject, type JsonPath, unknownKeys } from './issue-sink.js';

/** Where an assertion sits: its list, its position there, its JSON path, and the sink for its issues. */
export interface Place {
  list: NormalizedAssertion['list'];
  index: number;
  path: JsonPath;
  sink: IssueSink;
}

const labelKeys = new Set([...Object.keys(assertionLabelFields), 'type', 'kind', 'method']);

/** The assertion as graded, from what was read of it. */
export function build(
  place: Place,
  text: string | undefined,
  spec: NormalizedAssertion['spec'],
  source: unknown,
): NormalizedAssertion {
  const object = isPlainObject(source) ? source : {};
  const id =
    object.id ??
    (typeof object.name === 'string' && object.type === undefined && object.kind === undefined
      ? object.name
      : undefined);
  return {
    list: place.list,
    index: place.index,
    ...(typeof id === 'string' || typeof id === 'number' ? { id: String(id) } : {}),
    text: text ?? describeCheck(spec),
    spec,
    mustPass: object.mustPass === true,
    source,
  };
}

function describeCheck(spec: NormalizedAssertion['spec']): string {
  if (spec.mode === 'judge') return spec.claim;
  const details = Object.entries(spec.config)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return details ? `${spec.grader} ${details}` : spec.grader;
}

/** The arguments of a check: everything but its labels and its name. */
export function configOf(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !labelKeys.has(key)));
}

/** The first prose field of an object (`text`, `description`, `check`), when it has one. */
export function proseOf(value: Record<string, unknown>): { field: string; text: string } | undefined {
  for (const field of proseFields) {
    const text = value[field];
    if (isProse(text)) return { field, text };
  }
  return undefined;
}

/** A string with something in it. */
export function isProse(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The schema of one intent, or undefined when `kind` has no such method. */
export function intentSchemaOf(kind: IntentKind, method: string): z.ZodObject | undefined {
  const schemas: Readonly<Record<string, z.ZodObject>> = intentSchemas[kind];
  return Object.hasOwn(schemas, method) ? schemas[method] : undefined;
}

/** Warns about every key of `value` that is neither in `known` nor a label field. */
export function warnIgnoredKeys(value: Record<string, unknown>, place: Place, known: Iterable<string>): void {
  for (const key of unknownKeys(value, [...known, ...Object.keys(assertionLabelFields)])) {
    place.sink.warning('unknown-key', [...place.path, key], `unknown key \`${key}\` is kept but not used`, {
      key: true,
    });
  }
}
