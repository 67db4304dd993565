import { basename } from 'node:path';

/**
 * Names of the files Skeval reads as other tools' eval files beside a SKILL.md. Apart from the
 * importers, so that discovery and loading name such a file without loading them.
 */
export function isForeignEvalsFileName(path: string): boolean {
  const name = basename(path);
  return /^promptfooconfig\.ya?ml$/i.test(name) || /(^|\.)eval\.ya?ml$/i.test(name) || /^cases\.ya?ml$/i.test(name);
}
