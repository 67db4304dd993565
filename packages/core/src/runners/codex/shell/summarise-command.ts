import { type CommandSummary, listSummary } from './command-summary.js';
import { fileListers, isPythonListing } from './file-listers.js';
import { fileReaders } from './file-readers.js';
import { fileSearchers } from './file-searchers.js';

/** What one command does, as Codex's summary parser calls it: a read, a listing, a search, or unknown. */
export function summariseCommand(name: string, rest: string[]): CommandSummary {
  const unknown: CommandSummary = { kind: 'unknown', words: [name, ...rest] };
  const reader = fileReaders.get(name);
  if (reader) {
    const paths = reader(rest);
    return paths === undefined || paths.length === 0 || paths.includes('') ? unknown : { kind: 'read', paths };
  }
  const lister = fileListers.get(name);
  if (lister) return listSummary(lister(rest));
  const searcher = fileSearchers.get(name);
  if (searcher) return searcher(rest) ?? unknown;
  return isPythonListing(name, rest) ? listSummary([]) : unknown;
}
