import type { Command } from 'commander';
import type { CommandContext } from './main.js';

/** What a command's module adds to its command: the arguments, options, help text and action. */
type DefineCommand = (command: Command, context: CommandContext) => void;

/** One `skeval` command, as the top-level help lists it, and where the rest of it is. */
export interface CommandEntry {
  name: string;
  /** Its arguments, as its module declares them: `[path]`, `<before> <after>`, `<run-dir...>`. */
  arguments: string;
  description: string;
  /** Loads the command's module: only for the command that runs, or whose help is asked for. */
  load: () => Promise<DefineCommand>;
}

/**
 * For a command that parses a few files and exits (validate, brief, transpile, import): zod's
 * one-shot setting, then the command's module. zod reads the setting when a schema is built, and
 * a command's file may build schemas as its chunks load, before any line of its own runs; made
 * here, the setting precedes them all (decision 0074).
 */
async function oneShot<Loaded>(load: () => Promise<Loaded>): Promise<Loaded> {
  await import('./parse-once.js');
  return load();
}

/**
 * Every command but `assert` (which `main` hands to skeval-assert whole), in the order of the
 * help. Names and descriptions live here, so that `skeval --help` and `skeval --version` load
 * no command's module, and a command loads no other command's.
 */
export const commandTable: readonly CommandEntry[] = [
  {
    name: 'init',
    arguments: '[skill-dir]',
    description: "write a starter evals/evals.json for a skill from its SKILL.md's name and description",
    load: async () => (await import('./commands/init.js')).defineInit,
  },
  {
    name: 'validate',
    arguments: '[paths...]',
    description: 'check evals files and report every problem with its line and column',
    load: () => oneShot(async () => (await import('./commands/validate.js')).defineValidate),
  },
  {
    name: 'check',
    arguments: '[path]',
    description:
      "does the eval tell a good answer from a bad one? grade every assertion on the case's reference, a null agent and mutants, running no agent",
    load: async () => (await import('./commands/check.js')).defineCheck,
  },
  {
    name: 'run',
    arguments: '[path]',
    description:
      'run every case of a skill (or of every skill in a tree) through an agent, grade it, write the artifacts',
    load: async () => (await import('./commands/run.js')).defineRun,
  },
  {
    name: 'grade',
    arguments: '<run-dir>',
    description: "re-grade a stored run with the skill's current assertions, running no agent",
    load: async () => (await import('./commands/grade.js')).defineGrade,
  },
  {
    name: 'compare',
    arguments: '<before> <after>',
    description:
      'compare two runs (folders or benchmark.json files): per-case changes, new failures, fixed cases, the change in pass rate',
    load: async () => (await import('./commands/compare.js')).defineCompare,
  },
  {
    name: 'calibrate',
    arguments: '<run-dir...>',
    description:
      "measure the judge against the author's review labels (feedback.json): agreement, Cohen's κ, the confusion matrix, the claims it got wrong",
    load: async () => (await import('./commands/calibrate.js')).defineCalibrate,
  },
  {
    name: 'merge',
    arguments: '<dir...>',
    description:
      'merge the run folders of `skeval run --shard i/n` into one run folder, checking every shard and every case is there exactly once',
    load: async () => (await import('./commands/merge.js')).defineMerge,
  },
  {
    name: 'report',
    arguments: '<run-dir...>',
    description: 'write one self-contained HTML page of a run: verdicts, evidence, responses, traces, arms, review',
    load: async () => (await import('./commands/report.js')).defineReport,
  },
  {
    name: 'doctor',
    arguments: '',
    description:
      'check this machine: the sandbox in force, the network allowlist (a probe), each agent CLI found and whether it starts in the sandbox',
    load: async () => (await import('./commands/doctor.js')).defineDoctor,
  },
  {
    name: 'brief',
    arguments: '<skill-or-evals-file>',
    description: 'print what each case gives the agent and what will be checked: the grading brief',
    load: () => oneShot(async () => (await import('./commands/brief.js')).defineBrief),
  },
  {
    name: 'transpile',
    arguments: '<evals-file>',
    description:
      'write a plain evals.json (strings only) in which each deterministic assertion is an instruction to run `skeval assert`',
    load: () => oneShot(async () => (await import('./commands/transpile.js')).defineTranspile),
  },
  {
    name: 'import',
    arguments: '<file>',
    description:
      "write the evals.json equivalent of another tool's eval file (promptfoo, agentv), listing every mapping and every loss",
    load: () => oneShot(async () => (await import('./commands/import.js')).defineImport),
  },
  {
    name: 'triggers',
    arguments: '[path]',
    description: 'does the skill fire? run its trigger queries among its neighbours and measure the routing',
    load: async () => (await import('./commands/triggers.js')).defineTriggers,
  },
];
