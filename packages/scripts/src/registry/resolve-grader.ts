import { type ResolvedCustomGrader, resolveCustomGrader } from '../custom/find-graders.js';
import type { BuiltInGrader } from './grader.js';
import { isBuiltInGraderName } from './names.js';
import { builtInGraders } from './registry.js';

/** What a grader name stands for, seen from one folder. */
export type ResolvedGrader = { kind: 'built-in'; name: string; grader: BuiltInGrader } | ResolvedCustomGrader;

/**
 * Finds the grader `name` stands for: a built-in, else a custom grader in `.skeval/graders/`
 * (or `.agentv/graders/`) in `from` or a folder above it, else nothing, with the names that
 * exist. Every place that runs or describes a grader by name goes through here.
 */
export function resolveGrader(name: string, options: { from: string }): ResolvedGrader {
  const builtIn = builtInGraders.get(name);
  if (builtIn) return { kind: 'built-in', name, grader: builtIn };
  const custom = resolveCustomGrader(name, options);
  if (custom.kind === 'missing' && isBuiltInGraderName(name)) {
    const names = [...builtInGraders.keys()].join(', ');
    return { ...custom, message: `no grader named \`${name}\`: no built-in grader has that name (they are: ${names})` };
  }
  return custom;
}
