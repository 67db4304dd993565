import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Everything that can change a model's answer, and so goes into its cache key. */
export interface CacheKeyParts {
  provider: string;
  model: string;
  /** The endpoint the request goes to: one server's answer never stands in for another's. */
  baseURL?: string | undefined;
  /** How structured output is asked for (`tool`, `json-schema`, `json-mode`). */
  structuredOutput?: string | undefined;
  /** The version of the prompt and of the rules its answer is read by (`judgePromptVersion`). */
  promptVersion?: number | string | undefined;
  /** Which sample of a claim set this is (`--judge-samples`): each sample has its own entry. */
  sample?: number | undefined;
  /** The whole request: instructions, messages, response schema, token limit, temperature. */
  request: unknown;
}

/** A content-addressed store of model responses on disk, shared safely by parallel runs. */
export interface ResponseCache {
  /** The key of a request: a SHA-256 of all its parts. */
  keyOf(parts: CacheKeyParts): string;
  /** The stored value, as JSON read back: the caller checks its shape. Undefined when there is none. */
  get(key: string): unknown;
  /** Stores a response; call it only for responses that were valid. */
  set(key: string, value: unknown): void;
}

/** Where responses are kept: `$SKEVAL_CACHE_DIR/judge`, else `$XDG_CACHE_HOME/skeval/judge`, else `~/.cache/skeval/judge`. */
export function defaultResponseCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.SKEVAL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'skeval'), 'judge');
}

/**
 * A cache that stores every valid answer but never answers from what it holds (`--no-cache`):
 * each request is sent, and its fresh answer replaces the stored one, so a later run that reads
 * the cache gets the newest answer, never an older one.
 */
export function writeOnlyCache(cache: ResponseCache): ResponseCache {
  return { keyOf: cache.keyOf, get: () => undefined, set: cache.set };
}

export function createResponseCache(dir: string = defaultResponseCacheDir()): ResponseCache {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    keyOf: ({ provider, model, baseURL, structuredOutput, promptVersion, sample, request }) =>
      createHash('sha256')
        .update(
          JSON.stringify([
            2,
            provider,
            model,
            baseURL ?? null,
            structuredOutput ?? null,
            promptVersion ?? null,
            request,
            // Only a sampled request adds its number, so the keys of unsampled requests stay as they were.
            ...(sample === undefined ? [] : [{ sample }]),
          ]),
        )
        .digest('hex'),
    get(key) {
      try {
        return JSON.parse(readFileSync(pathOf(key), 'utf8'));
      } catch {
        return undefined;
      }
    },
    set(key, value) {
      const target = pathOf(key);
      mkdirSync(join(dir, key.slice(0, 2)), { recursive: true });
      // Written aside and renamed: a reader in another run sees the whole file or none.
      const temporary = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        writeFileSync(temporary, JSON.stringify(value));
        renameSync(temporary, target);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
    },
  };
}
