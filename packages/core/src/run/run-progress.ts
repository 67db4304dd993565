import type { CaseRunOutcome } from '@skeval/run-folder';
import type { Configuration } from '@skeval/schema/internal';

/** What a run tells its reporters as it goes. */
export type RunProgressEvent =
  /** Before the first case run: how many case runs the run plans, and whether they have arms or trials. */
  | {
      type: 'run-start';
      caseRuns: number;
      nested: boolean;
      /** The agent, as `--agent` names it (`command`, `claude-code`, …). */
      agent: string;
      /** The run folder of each skill that runs. */
      runDirs: string[];
    }
  /** The run was interrupted: no case run starts, and the running ones get `graceMs` before they are stopped. */
  | { type: 'stopping'; running: number; graceMs: number; runDirs: string[] }
  /** A case run stopped by the interrupt: nothing of it is recorded, and `--resume` runs it again. */
  | { type: 'case-interrupted'; skill: string; caseId: string; arm: Configuration; runNumber: number }
  | { type: 'case-start'; skill: string; caseId: string; arm: Configuration; runNumber: number }
  | { type: 'case-end'; outcome: CaseRunOutcome }
  | {
      type: 'case-skipped';
      skill: string;
      caseId: string;
      arm: Configuration;
      runNumber: number;
      reason: 'complete' | 'interrupted' | 'write-failed' | 'cost-cap';
    }
  /** `--resume` found a case run whose artifacts do not read back: it runs again. */
  | { type: 'case-redo'; skill: string; caseId: string; problems: string[] }
  /** Something the user should know before the case runs start: no sandbox, an agent version Skeval does not know. */
  | { type: 'note'; message: string };
