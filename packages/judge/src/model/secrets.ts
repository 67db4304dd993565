import { createRedactor, type Redactor } from '@skeval/schema/internal';
import type { GenerateResult } from './types.js';

/** What a model adapter knows that must never reach a message, an artifact or the evidence. */
export interface AdapterSecrets {
  /** The API key, and the variable it is named after in `[redacted:<NAME>]` (`ANTHROPIC_API_KEY`). */
  apiKey?: string | undefined;
  apiKeyName: string;
  /** A password or key-like query parameter in the endpoint (`https://user:pass@host/v1?api-key=…`). */
  baseURL?: string | undefined;
  /** Other secrets, by variable name (an environment): those named like credentials are redacted. */
  secrets?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The redactor of one adapter, from Skeval's shared rules (`createRedactor`): a value is
 * replaced by `[redacted:<NAME>]` when its name says it is a credential and it has at least
 * 8 characters.
 */
export function adapterRedactor(known: AdapterSecrets): Redactor {
  const named: Record<string, string | undefined> = { ...known.secrets };
  const add = (name: string, value: string | undefined) => {
    if (!value) return;
    const taken = named[name];
    if (taken !== undefined && taken !== value) named[`ADAPTER_${name}`] = value;
    else named[name] = value;
  };
  add(known.apiKeyName, known.apiKey);
  const url = parseURL(known.baseURL);
  if (url) {
    add('BASE_URL_PASSWORD', url.password);
    add('BASE_URL_DECODED_PASSWORD', safeDecode(url.password));
    for (const [parameter, value] of url.searchParams)
      if (/key|token|secret|auth|sig|password/i.test(parameter))
        add(`BASE_URL_${parameter.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_SECRET`, value);
  }
  return createRedactor(named);
}

function parseURL(text: string | undefined): URL | undefined {
  if (!text || !URL.canParse(text)) return undefined;
  return new URL(text);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** A result with every secret redacted from its text, its JSON and its tool calls' arguments. */
export function redactResult(result: GenerateResult, redactor: Redactor): GenerateResult {
  if (redactor.names.length === 0) return result;
  return {
    ...result,
    text: redactor.redact(result.text),
    toolCalls: redactor.redactDeep(result.toolCalls),
    ...(result.json === undefined ? {} : { json: redactor.redactDeep(result.json) }),
  };
}
