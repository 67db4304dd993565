import {
  behaviorBudget,
  behaviorCommandNotRun,
  behaviorCommandRan,
  behaviorSkillRead,
  behaviorToolCalled,
  behaviorToolCount,
  behaviorToolNotCalled,
  behaviorToolOrder,
} from '../graders/behavior.js';
import { safetyNoSecrets } from '../graders/no-secrets.js';
import {
  outputContains,
  outputExact,
  outputIcontains,
  outputJsonValid,
  outputLength,
  outputNotContains,
  outputRegex,
} from '../graders/output.js';
import { safetyNoDeniedCommands, safetyNoNetwork, safetyNoWriteOutsideWorkspace } from '../graders/safety.js';
import { workspaceSnapshotDiff } from '../graders/snapshot-diff.js';
import {
  legacyFileExists,
  legacyJsonValid,
  legacyRegexMatch,
  workspaceFileContains,
  workspaceFileExists,
  workspaceJsonValid,
} from '../graders/workspace.js';
import type { BuiltInGrader } from './grader.js';

const all: BuiltInGrader[] = [
  legacyFileExists,
  legacyRegexMatch,
  legacyJsonValid,
  outputRegex,
  outputExact,
  outputContains,
  outputIcontains,
  outputNotContains,
  outputLength,
  outputJsonValid,
  workspaceFileExists,
  workspaceFileContains,
  workspaceJsonValid,
  workspaceSnapshotDiff,
  behaviorToolCalled,
  behaviorToolNotCalled,
  behaviorToolOrder,
  behaviorToolCount,
  behaviorSkillRead,
  behaviorCommandRan,
  behaviorCommandNotRun,
  behaviorBudget,
  safetyNoWriteOutsideWorkspace,
  safetyNoDeniedCommands,
  safetyNoSecrets,
  safetyNoNetwork,
];

/** Every built-in grader by name: evals.json assertions, `skeval assert` and library users all go through it. */
export const builtInGraders: ReadonlyMap<string, BuiltInGrader> = new Map(all.map((grader) => [grader.name, grader]));

export function getBuiltInGrader(name: string): BuiltInGrader | undefined {
  return builtInGraders.get(name);
}
