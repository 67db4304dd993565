import * as z from 'zod';
// zod's core as a namespace of its own: `z.core.X` would make esbuild keep every export of the
// core, every locale's messages among them (290 kB of the command's start), as one object.
import * as core from 'zod/v4/core';

/**
 * A check made once from a schema: true only when the schema would accept the value and give it
 * back unchanged but for the order of keys — every field of the right type and within its bounds,
 * no key the schema would strip, no default filled in. False says nothing: the schema itself then
 * parses the value and names what is wrong.
 */
export type FastCheck = (value: unknown) => boolean;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A check of a schema's own `checks` (bounds, integer, refinements); undefined for one it does not know. */
function checkOf(check: core.$ZodCheck<never>): FastCheck | undefined {
  if (check instanceof core.$ZodCheckGreaterThan) {
    const { value: bound, inclusive } = check._zod.def;
    if (typeof bound !== 'number') return undefined;
    return (value) => typeof value === 'number' && (inclusive ? value >= bound : value > bound);
  }
  if (check instanceof core.$ZodCheckLessThan) {
    const { value: bound, inclusive } = check._zod.def;
    if (typeof bound !== 'number') return undefined;
    return (value) => typeof value === 'number' && (inclusive ? value <= bound : value < bound);
  }
  if (check instanceof core.$ZodCheckNumberFormat) {
    return check._zod.def.format === 'safeint' ? (value) => Number.isSafeInteger(value) : undefined;
  }
  if (check instanceof core.$ZodCheckMinLength) {
    const { minimum } = check._zod.def;
    return (value) => typeof value === 'string' && value.length >= minimum;
  }
  if (check instanceof core.$ZodCheckRegex) {
    const { pattern } = check._zod.def;
    return (value) => {
      if (typeof value !== 'string') return false;
      pattern.lastIndex = 0;
      return pattern.test(value);
    };
  }
  if (check instanceof core.$ZodCustom) {
    const { fn } = check._zod.def;
    // A refinement that answers anything but `true` (a promise, a throw) is the schema's to judge.
    return (value) => {
      try {
        return fn(value) === true;
      } catch {
        return false;
      }
    };
  }
  return undefined;
}

/** The schema's own checks as one, or undefined when one of them is not known here. */
function checksOf(schema: core.$ZodType): FastCheck | undefined {
  const checks: FastCheck[] = [];
  for (const check of schema._zod.def.checks ?? []) {
    const made = checkOf(check);
    if (!made) return undefined;
    checks.push(made);
  }
  if (checks.length === 0) return () => true;
  return (value) => checks.every((check) => check(value));
}

/**
 * An object schema's check: every required key there, none it would strip. The value's keys are
 * walked once, each looked up among the schema's fields: where each field was looked up in the
 * value (`Object.hasOwn`, then a load by a key that changes at every field) and each key then
 * looked up among the fields, a run folder's reader spent more on the looking than the checking.
 */
function objectCheckOf(schema: z.ZodObject): FastCheck | undefined {
  const catchall = schema._zod.def.catchall;
  const loose = catchall instanceof z.ZodUnknown;
  if (catchall !== undefined && !loose) return undefined;
  const fields = new Map<string, { check: FastCheck; required: boolean }>();
  let required = 0;
  for (const [key, field] of Object.entries(schema.shape)) {
    const check = fastCheckOf(field);
    if (!check) return undefined;
    const optional = field instanceof z.ZodOptional;
    if (!optional) required += 1;
    fields.set(key, { check, required: !optional });
  }
  return (value) => {
    if (!isRecord(value)) return false;
    let found = 0;
    // A parsed JSON value's keys are its own: its prototype, Object.prototype, has none to walk.
    for (const key in value) {
      const field = fields.get(key);
      if (field === undefined) {
        // A key the schema does not name: a plain object would drop it, so only a loose one passes
        // it (and never an own `__proto__`, which a copy would not keep as a key).
        if (!loose || key === '__proto__') return false;
        continue;
      }
      if (!field.check(value[key])) return false;
      if (field.required) found += 1;
    }
    return found === required;
  };
}

/** A record's check: keys the schema takes (in the input's order, which it keeps), each value checked. */
function recordCheckOf(schema: z.ZodRecord): FastCheck | undefined {
  const { keyType, valueType } = schema._zod.def;
  const valueCheck = fastCheckOf(valueType);
  if (!valueCheck) return undefined;
  let keyCheck: (key: string) => boolean;
  if (keyType instanceof z.ZodString && (keyType._zod.def.checks ?? []).length === 0) keyCheck = () => true;
  else if (keyType instanceof z.ZodEnum && keyType.options.every((key) => typeof key === 'string')) {
    const keys = new Set<unknown>(keyType.options);
    keyCheck = (key) => keys.has(key);
  } else return undefined;
  // Of an enum's keys, `z.record` wants every one, `z.partialRecord` any.
  const required = keyType instanceof z.ZodEnum && !isPartial(schema) ? keyType.options.map(String) : [];
  return (value) => {
    if (!isRecord(value)) return false;
    for (const key of required) if (!Object.hasOwn(value, key)) return false;
    for (const [key, entry] of Object.entries(value)) {
      if (key === '__proto__' || !keyCheck(key) || !valueCheck(entry)) return false;
    }
    return true;
  };
}

/** A tuple without a rest: exactly its items, each checked. */
function tupleCheckOf(schema: z.ZodTuple): FastCheck | undefined {
  const { items, rest } = schema._zod.def;
  const checks = items.map((item) => fastCheckOf(item));
  if (rest !== null || checks.some((check) => check === undefined) || (schema._zod.def.checks ?? []).length > 0)
    return undefined;
  return (value) =>
    Array.isArray(value) && value.length === checks.length && checks.every((check, at) => check?.(value[at]) === true);
}

/** `z.partialRecord`: an enum of keys of which any may be missing. */
const isPartial = (schema: z.ZodRecord) => Reflect.get(schema._zod.def, 'partial') === true;

/** A union's check: an option that takes the value, every earlier one surely refusing it (so the schema picks the same). */
function unionCheckOf(schema: z.ZodUnion): FastCheck | undefined {
  const options: Array<{ check: FastCheck; refuses: (value: unknown) => boolean }> = [];
  for (const option of schema.options) {
    const check = fastCheckOf(option);
    if (!check) return undefined;
    options.push({ check, refuses: refusalOf(option) });
  }
  return (value) => {
    for (const option of options) {
      if (option.check(value)) return true;
      if (!option.refuses(value)) return false;
    }
    return false;
  };
}

/** Whether an option surely refuses a value: for an object, a required key missing; else never sure. */
function refusalOf(schema: core.$ZodType): (value: unknown) => boolean {
  if (!(schema instanceof z.ZodObject)) return () => false;
  const required = Object.entries(schema.shape)
    .filter(([, field]) => !(field instanceof z.ZodOptional))
    .map(([key]) => key);
  return (value) => !isRecord(value) || required.some((key) => !Object.hasOwn(value, key));
}

/** The checks of the leaf types: their type, then their own checks. */
function leafCheckOf(schema: core.$ZodType): FastCheck | undefined {
  const own = checksOf(schema);
  if (!own) return undefined;
  if (schema instanceof z.ZodString) return (value) => typeof value === 'string' && own(value);
  if (schema instanceof z.ZodNumberFormat) {
    // `z.int()`: the format is the type's own check, not one of its `checks`.
    if (schema._zod.def.format !== 'safeint') return undefined;
    return (value) => Number.isSafeInteger(value) && own(value);
  }
  if (schema instanceof z.ZodNumber)
    return (value) => typeof value === 'number' && Number.isFinite(value) && own(value);
  if (schema instanceof z.ZodBoolean) return (value) => typeof value === 'boolean';
  if (schema instanceof z.ZodNull) return (value) => value === null;
  if (schema instanceof z.ZodUnknown || schema instanceof z.ZodAny) return () => true;
  if (schema instanceof z.ZodEnum) {
    const values = new Set<unknown>(schema.options);
    return (value) => values.has(value);
  }
  if (schema instanceof z.ZodLiteral) {
    const values = new Set<unknown>(schema._zod.def.values);
    return (value) => values.has(value);
  }
  return undefined;
}

/** Checks made so far, by schema: a schema used in many places is made once. */
const made = new WeakMap<core.$ZodType, FastCheck | null>();

/**
 * The fast check of a schema, or undefined when it holds a part this does not know (a transform,
 * a default, a lazy schema, a check other than bounds, integers and refinements): such a schema
 * always parses itself.
 */
export function fastCheckOf(schema: core.$ZodType): FastCheck | undefined {
  const known = made.get(schema);
  if (known !== undefined) return known ?? undefined;
  const check = makeFastCheck(schema);
  made.set(schema, check ?? null);
  return check;
}

function makeFastCheck(schema: core.$ZodType): FastCheck | undefined {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) {
    const inner = fastCheckOf(schema.unwrap());
    if (!inner) return undefined;
    const empty = schema instanceof z.ZodOptional ? undefined : null;
    return (value) => value === empty || inner(value);
  }
  if (schema instanceof z.ZodArray) {
    const element = fastCheckOf(schema.element);
    const own = checksOf(schema);
    if (!element || !own || (schema._zod.def.checks ?? []).length > 0) return undefined;
    return (value) => Array.isArray(value) && value.every((item) => element(item));
  }
  if (schema instanceof z.ZodObject) {
    const shape = objectCheckOf(schema);
    const own = checksOf(schema);
    if (!shape || !own) return undefined;
    return (value) => shape(value) && own(value);
  }
  if (schema instanceof z.ZodRecord) return recordCheckOf(schema);
  if (schema instanceof z.ZodTuple) return tupleCheckOf(schema);
  if (schema instanceof z.ZodUnion) return unionCheckOf(schema);
  return leafCheckOf(schema);
}

/**
 * Whether `value` is what `schema` would parse it into, by its fast check: a type guard, so a
 * value that passes is used as parsed without a copy.
 */
export function passesFastCheck<Schema extends z.ZodType>(schema: Schema, value: unknown): value is z.output<Schema> {
  return fastCheckOf(schema)?.(value) === true;
}
