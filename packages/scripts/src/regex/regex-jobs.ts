/** A regular expression to run against one of a batch's texts. */
export interface RegexJob {
  pattern: string;
  flags?: string;
  text: string;
}

export type RegexOutcome =
  | { status: 'match'; index: number; match: string }
  | { status: 'no-match' }
  | { status: 'error'; message: string };

/** A JSON document to validate against a JSON Schema, both as JSON text. */
export interface JsonSchemaJob {
  schema: string;
  data: string;
  /** `2020-12` for a schema that declares it, else draft-07 (Ajv's default). */
  draft: 'draft-07' | '2020-12';
}

export type JsonSchemaOutcome =
  | { status: 'valid' }
  /** The first 50 of `errorCount` errors, as `/path message`. */
  | { status: 'invalid'; errors: string[]; errorCount: number }
  /** The schema itself does not compile. */
  | { status: 'bad-schema'; message: string }
  /** Undecided: the validation timed out or crashed. */
  | { status: 'error'; message: string };

/** A job waiting for the worker, with how to hand it what the worker answered (or why it did not). */
export type PendingJob =
  | { kind: 'regex'; job: RegexJob; resolve: (outcome: RegexOutcome) => void }
  | { kind: 'schema'; job: JsonSchemaJob; resolve: (outcome: JsonSchemaOutcome) => void };
