import {
  assertionLabelFields,
  graderNamePattern,
  type IntentKind,
  intentGraderName,
  intentKinds,
  intentMethods,
  intentSchemas,
  isIntentKind,
  isLegacyScriptType,
  jsonTypeName,
  legacyScriptAssertionSchema,
  legacyScriptSchemas,
  type NormalizedAssertion,
  proseFields,
} from '@skeval/schema';
import type { z } from 'zod';
import { assertionAliases } from './assertion-aliases.js';
import { type IssueSink, isPlainObject, type JsonPath, unknownKeys } from './issue-sink.js';
import { checkRegexFields } from './regex-fields.js';

type AssertionList = NormalizedAssertion['list'];

interface Place {
  list: AssertionList;
  index: number;
  path: JsonPath;
  sink: IssueSink;
}

const labelKeys = new Set([...Object.keys(assertionLabelFields), 'type', 'kind', 'method']);

/** Reads one entry of `assertions` or `expectations`: every form Skeval grades, and other tools' forms with a warning. */
export function readAssertion(value: unknown, place: Place): NormalizedAssertion | undefined {
  const { path, sink } = place;
  if (typeof value === 'string') {
    if (value.trim() === '') {
      sink.error('invalid-value', path, 'the assertion is empty; write the claim to check, or remove the entry');
      return undefined;
    }
    return build(place, value, { mode: 'judge', claim: value }, value);
  }
  if (!isPlainObject(value)) {
    sink.error(
      'invalid-value',
      path,
      `an assertion is a string (a claim for the judge) or an object, got ${jsonTypeName(value)}`,
    );
    return undefined;
  }
  if (value.type !== undefined) return readTyped(value, place);
  if (value.kind !== undefined) return readIntent(value, place);
  const prose = proseOf(value);
  if (prose) {
    warnIgnoredKeys(value, place, [prose.field, 'id', 'name', 'mustPass']);
    sink.warning('read-as', path, `no \`type\` or \`kind\`: read as a claim for the judge, from \`${prose.field}\``);
    return build(place, prose.text, { mode: 'judge', claim: prose.text }, value);
  }
  sink.error(
    'invalid-value',
    path,
    'this assertion object has no `type`, `kind` or prose field; write a claim as a string, or give `text`, or name a check with `type` (for example {"type": "file-exists", "path": "out.md"})',
  );
  return undefined;
}

function readTyped(value: Record<string, unknown>, place: Place): NormalizedAssertion | undefined {
  const { path, sink } = place;
  const type = value.type;
  if (typeof type !== 'string' || type === '') {
    sink.error(
      'invalid-value',
      [...path, 'type'],
      `\`type\` must be a grader name (a string), got ${jsonTypeName(type)}`,
    );
    return undefined;
  }
  if (isLegacyScriptType(type)) {
    const data = sink.check(legacyScriptAssertionSchema, value, path);
    if (!data) return undefined;
    if (!checkRegexFields(type, value, place)) return undefined;
    warnUnknownKeys(value, place, legacyScriptSchemas[type].shape);
    return build(place, undefined, { mode: 'grader', grader: type, config: configOf(value) }, value);
  }
  const alias = assertionAliases[type];
  if (alias) {
    if (alias.kind === 'judge') {
      const claim = ['value', 'rubric', 'prompt', ...proseFields].map((key) => value[key]).find(isProse);
      if (!claim) {
        sink.error(
          'invalid-value',
          path,
          `\`type: "${type}"\` is read as a claim for the judge, but it has no claim: give it in \`value\` or \`text\``,
        );
        return undefined;
      }
      sink.warning('read-as', [...path, 'type'], `\`type: "${type}"\` read as a claim for the judge`);
      return build(place, claim, { mode: 'judge', claim }, value);
    }
    const args = alias.toIntent(value);
    const candidate =
      alias.kind === 'legacy' ? { type: alias.method, ...args } : { kind: alias.kind, method: alias.method, ...args };
    const schema: z.ZodType | undefined =
      alias.kind === 'legacy' ? legacyScriptAssertionSchema : intentSchemaOf(alias.kind, alias.method);
    const readAs = alias.kind === 'legacy' ? `\`${alias.method}\`` : `\`${alias.kind}\`/\`${alias.method}\``;
    const prose = proseOf(value);
    if (prose && schema?.safeParse(candidate).success !== true) {
      sink.warning(
        'read-as',
        [...path, 'type'],
        `\`type: "${type}"\` lacks the arguments of ${readAs}; read as a claim for the judge, from \`${prose.field}\``,
      );
      return build(place, prose.text, { mode: 'judge', claim: prose.text }, value);
    }
    sink.warning('read-as', [...path, 'type'], `\`type: "${type}"\` read as ${readAs}`);
    if (alias.kind === 'legacy') {
      if (!sink.check(legacyScriptAssertionSchema, candidate, path)) return undefined;
      return build(place, prose?.text, { mode: 'grader', grader: alias.method, config: configOf(candidate) }, value);
    }
    return readKnownIntent(candidate, alias.kind, alias.method, place, value);
  }
  if (!graderNamePattern.test(type)) {
    sink.error(
      'invalid-value',
      [...path, 'type'],
      `\`type: ${JSON.stringify(type)}\` is not a grader name; grader names use only letters, digits, \`_\` and \`-\``,
    );
    return undefined;
  }
  return readGraderReference(type, value, place, `\`type: "${type}"\` is not a built-in check`);
}

function readIntent(value: Record<string, unknown>, place: Place): NormalizedAssertion | undefined {
  const { path, sink } = place;
  const { kind, method } = value;
  if (!isIntentKind(kind)) {
    const name = typeof method === 'string' ? method : typeof kind === 'string' ? kind : undefined;
    if (name === undefined || !graderNamePattern.test(name)) {
      sink.error(
        'unknown-intent',
        [...path, 'kind'],
        `unknown intent \`kind\` ${JSON.stringify(kind)}; use one of ${intentKinds.join(', ')}`,
      );
      return undefined;
    }
    return readGraderReference(
      name,
      value,
      place,
      `unknown intent \`kind: ${JSON.stringify(kind)}\` (known: ${intentKinds.join(', ')})`,
      'kind',
    );
  }
  const methods = intentMethods(kind);
  if (typeof method !== 'string') {
    sink.error(
      'unknown-intent',
      [...path, 'method'],
      `a \`${kind}\` intent needs a \`method\`: one of ${methods.join(', ')}`,
    );
    return undefined;
  }
  if (!methods.includes(method)) {
    if (!graderNamePattern.test(method)) {
      sink.error(
        'unknown-intent',
        [...path, 'method'],
        `unknown \`method\` ${JSON.stringify(method)} for kind \`${kind}\`; use one of ${methods.join(', ')}`,
      );
      return undefined;
    }
    return readGraderReference(
      method,
      value,
      place,
      `unknown \`method: "${method}"\` for kind \`${kind}\` (known: ${methods.join(', ')})`,
      'method',
    );
  }
  return readKnownIntent(value, kind, method, place, value);
}

function readKnownIntent(
  intent: Record<string, unknown>,
  kind: IntentKind,
  method: string,
  place: Place,
  source: Record<string, unknown>,
): NormalizedAssertion | undefined {
  const schema = intentSchemaOf(kind, method);
  // Callers pass a method of `kind` (checked, or fixed in the alias table): none is unknown here.
  if (!schema) throw new Error(`no intent \`${kind}\`/\`${method}\``);
  const data = place.sink.check(schema, { ...intent, kind, method }, place.path);
  if (!data) return undefined;
  const grader = intentGraderName(kind, method);
  if (!checkRegexFields(grader, intent, place)) return undefined;
  if (intent === source) warnUnknownKeys(source, place, schema.shape);
  if (kind === 'output' && method === 'judge') {
    const claim = [intent.prompt, intent.rubric, intent.text, intent.description].find(isProse);
    if (claim === undefined) {
      // The schema wants one of these present; one made only of spaces passes it but is no claim.
      place.sink.error(
        'invalid-value',
        [...place.path, 'prompt'],
        '`output`/`judge` needs the claim to judge in `prompt` (or `text`)',
      );
      return undefined;
    }
    return build(place, claim, { mode: 'judge', claim }, source);
  }
  return build(place, proseOf(source)?.text, { mode: 'grader', grader, config: configOf(intent) }, source);
}

/** The schema of one intent, or undefined when `kind` has no such method. */
function intentSchemaOf(kind: IntentKind, method: string): z.ZodObject | undefined {
  const schemas: Readonly<Record<string, z.ZodObject>> = intentSchemas[kind];
  return Object.hasOwn(schemas, method) ? schemas[method] : undefined;
}

function readGraderReference(
  name: string,
  value: Record<string, unknown>,
  place: Place,
  why: string,
  field = 'type',
): NormalizedAssertion {
  const prose = proseOf(value);
  const exists = place.sink.graderExists?.(name);
  if (exists === false) {
    const instead = prose ? `the judge grades its \`${prose.field}\` instead` : 'it is graded as `error`';
    place.sink.warning(
      'unknown-assertion-type',
      [...place.path, field],
      `${why}, and no custom grader \`${name}\` was found in .skeval/graders/ (or .agentv/graders/) from the skill folder up: ${instead}`,
    );
  } else if (exists === undefined) {
    const otherwise = prose ? `otherwise the judge grades its \`${prose.field}\`` : 'otherwise it is graded as `error`';
    place.sink.warning(
      'unknown-assertion-type',
      [...place.path, field],
      `${why}; it runs the custom grader \`${name}\` from .skeval/graders/ if one exists, ${otherwise}`,
    );
  }
  const config = isPlainObject(value.config) ? value.config : configOf(value);
  return build(
    place,
    prose?.text,
    { mode: 'grader', grader: name, config, ...(prose ? { fallbackClaim: prose.text } : {}) },
    value,
  );
}

function build(
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

function configOf(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !labelKeys.has(key)));
}

function proseOf(value: Record<string, unknown>): { field: string; text: string } | undefined {
  for (const field of proseFields) {
    const text = value[field];
    if (isProse(text)) return { field, text };
  }
  return undefined;
}

function isProse(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

function warnUnknownKeys(value: Record<string, unknown>, place: Place, shape: Record<string, unknown>): void {
  warnIgnoredKeys(value, place, Object.keys(shape));
}

function warnIgnoredKeys(value: Record<string, unknown>, place: Place, known: string[]): void {
  for (const key of unknownKeys(value, [...known, ...Object.keys(assertionLabelFields)])) {
    place.sink.warning('unknown-key', [...place.path, key], `unknown key \`${key}\` is kept but not used`, {
      key: true,
    });
  }
}
