import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A content-addressed store of model responses on disk, shared safely by parallel runs. */
export interface ResponseCache {
  /** The key of a request: a hash of the provider, the model and the full request. */
  keyOf(parts: { provider: string; model: string; request: unknown }): string;
  /** The stored value, as JSON read back: the caller checks its shape. Undefined when there is none. */
  get(key: string): unknown;
  /** Stores a response; call it only for responses that were valid. */
  set(key: string, value: unknown): void;
}

/** Where responses are kept: `$SKEVAL_CACHE_DIR/judge`, else `$XDG_CACHE_HOME/skeval/judge`, else `~/.cache/skeval/judge`. */
export function defaultResponseCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.SKEVAL_CACHE_DIR ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'skeval'), 'judge');
}

export function createResponseCache(dir: string = defaultResponseCacheDir()): ResponseCache {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  return {
    keyOf: ({ provider, model, request }) =>
      createHash('sha256')
        .update(JSON.stringify([1, provider, model, request]))
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
      writeFileSync(temporary, JSON.stringify(value));
      renameSync(temporary, target);
    },
  };
}
