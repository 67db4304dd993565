import {
  closestName,
  graderNamePattern,
  isLegacyScriptType,
  jsonTypeName,
  legacyScriptAssertionSchema,
  legacyScriptSchemas,
  legacyScriptTypes,
  type NormalizedAssertion,
} from '@skeval/schema/internal';
import { assertionAliases } from './assertion-aliases.js';
import { build, configOf, type Place, proseOf, warnIgnoredKeys } from './assertion-parts.js';
import { isPlainObject } from './issue-sink.js';
import { readAlias } from './read-alias.js';
import { readGraderReference, readIntent } from './read-intent.js';
import { checkRegexFields } from './regex-fields.js';
import { assertionPathBase } from './unsafe-path.js';

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
    // The schema, the regular expressions and the keys are each checked: one does not hide another.
    const data = sink.check(legacyScriptAssertionSchema, value, path, { pathBase: assertionPathBase });
    const compiled = checkRegexFields(type, value, place);
    warnIgnoredKeys(value, place, Object.keys(legacyScriptSchemas[type].shape));
    if (!data || !compiled) return undefined;
    return build(place, undefined, { mode: 'grader', grader: type, config: configOf(value) }, value);
  }
  const alias = Object.hasOwn(assertionAliases, type) ? assertionAliases[type] : undefined;
  if (alias) return readAlias(type, alias, value, place);
  if (!graderNamePattern.test(type)) {
    sink.error(
      'invalid-value',
      [...path, 'type'],
      `\`type: ${JSON.stringify(type)}\` is not a grader name; grader names use only letters, digits, \`_\` and \`-\``,
    );
    return undefined;
  }
  // A near miss of a built-in or of another tool's name (`file_contians`) is a typo: an error now. A custom
  // grader of that name is no typo, and is looked up first: the nearest name costs an edit distance per name.
  const typo =
    sink.graderExists?.(type) === true
      ? undefined
      : closestName(type, [...legacyScriptTypes, ...Object.keys(assertionAliases)]);
  if (typo) {
    sink.error(
      'unknown-assertion-type',
      [...path, 'type'],
      `\`type: "${type}"\` is not a built-in check (did you mean \`${typo}\`?) and no custom grader has that name; correct it, or add a custom grader \`${type}\` in .skeval/graders/`,
    );
    return undefined;
  }
  return readGraderReference(type, value, place, `\`type: "${type}"\` is not a built-in check`);
}
