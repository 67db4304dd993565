import {
  closestName,
  graderNamePattern,
  type IntentKind,
  intentGraderName,
  intentKinds,
  intentMethods,
  isIntentKind,
  type NormalizedAssertion,
} from '@skeval/schema/internal';
import { build, configOf, intentSchemaOf, isProse, type Place, proseOf, warnIgnoredKeys } from './assertion-parts.js';
import { isPlainObject } from './issue-sink.js';
import { checkRegexFields } from './regex-fields.js';
import { assertionPathBase } from './unsafe-path.js';

/** Reads an intent assertion (`{ "kind", "method", … }`); an unknown kind or method names a custom grader. */
export function readIntent(value: Record<string, unknown>, place: Place): NormalizedAssertion | undefined {
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
    // A near miss of a method (`file-contians`) is a typo, not a custom grader: an error now, not
    // an `error` verdict at run time. So is a name no grader has and no prose to judge instead.
    const typo = closestName(method, methods);
    const noGrader = sink.graderExists?.(method) === false && !proseOf(value);
    if (!graderNamePattern.test(method) || (typo && sink.graderExists?.(method) !== true) || noGrader) {
      const meant = typo ? ` (did you mean \`${typo}\`?)` : '';
      const grader = graderNamePattern.test(method) ? `, or add a custom grader \`${method}\` in .skeval/graders/` : '';
      sink.error(
        'unknown-intent',
        [...path, 'method'],
        `unknown \`method\` ${JSON.stringify(method)} for kind \`${kind}\`${meant}; use one of ${methods.join(', ')}${grader}`,
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

/**
 * Checks a known intent strictly: its arguments, its regular expressions and its keys are each
 * checked, so one problem does not hide another. `intent` is what is checked (for an alias, the
 * arguments it was read as); `source` is the object as written.
 */
export function readKnownIntent(
  intent: Record<string, unknown>,
  kind: IntentKind,
  method: string,
  place: Place,
  source: Record<string, unknown>,
): NormalizedAssertion | undefined {
  const schema = intentSchemaOf(kind, method);
  // Callers pass a method of `kind` (checked, or fixed in the alias table): none is unknown here.
  if (!schema) throw new Error(`no intent \`${kind}\`/\`${method}\``);
  const data = place.sink.check(schema, { ...intent, kind, method }, place.path, { pathBase: assertionPathBase });
  const grader = intentGraderName(kind, method);
  const compiled = checkRegexFields(grader, intent, place);
  if (intent === source) warnIgnoredKeys(source, place, Object.keys(schema.shape));
  if (!data || !compiled) return undefined;
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

/**
 * A check Skeval does not know, read as the custom grader of that name: a warning says what
 * happens (the grader runs if it exists, else the judge grades the prose, else `error`).
 */
export function readGraderReference(
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
