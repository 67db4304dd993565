import { legacyScriptAssertionSchema, type NormalizedAssertion, proseFields } from '@skeval/schema/internal';
import type { z } from 'zod';
import type { AssertionAlias } from './assertion-aliases.js';
import { build, configOf, intentSchemaOf, isProse, type Place, proseOf } from './assertion-parts.js';
import { readKnownIntent } from './read-intent.js';
import { assertionPathBase } from './unsafe-path.js';

/**
 * Reads another tool's assertion `type` as the Skeval check it means, with a warning that says
 * how. An alias whose arguments do not fit but that has prose is read as a claim for the judge.
 */
export function readAlias(
  type: string,
  alias: AssertionAlias,
  value: Record<string, unknown>,
  place: Place,
): NormalizedAssertion | undefined {
  const { path, sink } = place;
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
  const readAs = `${alias.kind === 'legacy' ? `\`${alias.method}\`` : `\`${alias.kind}\`/\`${alias.method}\``}${alias.note ? ` ${alias.note}` : ''}`;
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
    if (!sink.check(legacyScriptAssertionSchema, candidate, path, { pathBase: assertionPathBase })) return undefined;
    return build(place, prose?.text, { mode: 'grader', grader: alias.method, config: configOf(candidate) }, value);
  }
  return readKnownIntent(candidate, alias.kind, alias.method, place, value);
}
