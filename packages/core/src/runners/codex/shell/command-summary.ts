/** One command of a script after classification; `unknown` keeps its words so the noise rules can inspect them. */
export type CommandSummary =
  | { kind: 'read'; paths: string[] }
  | { kind: 'list'; paths: string[] }
  | { kind: 'search'; paths: string[]; query?: string }
  | { kind: 'unknown'; words: string[] };

export function listSummary(paths: string[]): CommandSummary {
  return { kind: 'list', paths };
}

export function searchSummary(query: string | undefined, paths: string[]): CommandSummary {
  return query === undefined ? { kind: 'search', paths } : { kind: 'search', paths, query };
}
