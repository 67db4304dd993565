import { join } from 'node:path';
import {
  readFeedback,
  readRunFolder,
  readRunSummary,
  reviewRunIdOf,
  runFiles,
  writeJsonAtomic,
} from '@skeval/run-folder';
import { type AssertionReview, type Calibration, type CalibrationRecord, SkevalError } from '@skeval/schema/internal';
import { agreementOf, type LabelledVerdict } from './agreement.js';

/** The κ under which a judge is flagged, unless told otherwise (`--min-kappa`). */
export const defaultMinKappa = 0.6;

export interface CalibrateOptions {
  /** Run folders whose feedback.json labels to read, pooled. */
  runDirs: readonly string[];
  /** @default 0.6 */
  minKappa?: number;
  /** Record the result in each run folder's summary.json. @default true */
  record?: boolean;
  /** @default new Date() */
  now?: Date;
}

type Miss = Calibration['by_judge'][number]['wrong'][number];

/** One label on a judged pass or fail, turned into ground truth, with who judged it and where. */
interface Labelled extends LabelledVerdict {
  judgeModel: string;
  miss: Miss;
}

const flipped = (verdict: 'pass' | 'fail') => (verdict === 'pass' ? 'fail' : 'pass');

/**
 * The judge measured against the author: every review label of the runs' feedback.json on a
 * judged pass or fail becomes ground truth (agree keeps the verdict, disagree flips it) and is
 * compared with the verdict the run has now, so a run re-graded by another judge (`skeval grade`)
 * measures that judge. Agreement, Cohen's κ and the confusion matrix, pooled and per judge model
 * and assertion; a judge whose κ is under `minKappa` is flagged, and each run's summary.json
 * records the result. Labels on other graders' verdicts, on errors or skips, or whose row is gone,
 * are counted as ignored.
 */
export async function calibrate(options: CalibrateOptions): Promise<Calibration> {
  const minKappa = options.minKappa ?? defaultMinKappa;
  const labelled: Labelled[] = [];
  let ignored = 0;
  for (const runDir of options.runDirs) {
    const read = await labelsOf(runDir);
    labelled.push(...read.labelled);
    ignored += read.ignored;
  }
  const group = <Key extends string>(keyOf: (entry: Labelled) => Key) => {
    const groups = new Map<Key, Labelled[]>();
    for (const entry of labelled) groups.set(keyOf(entry), [...(groups.get(keyOf(entry)) ?? []), entry]);
    return [...groups.entries()];
  };
  const wrong = (entries: Labelled[]) =>
    entries.filter((entry) => entry.judge !== entry.truth).map((entry) => entry.miss);
  const by_judge = group((entry) => entry.judgeModel).map(([judge, entries]) => {
    const agreement = agreementOf(entries);
    return {
      judge,
      ...agreement,
      below_floor: agreement.kappa !== null && agreement.kappa < minKappa,
      wrong: wrong(entries),
    };
  });
  const by_assertion = group((entry) => JSON.stringify([entry.miss.case_id, entry.miss.assertion_text])).map(
    ([, entries]) => ({
      case_id: entries[0]?.miss.case_id ?? '',
      assertion_text: entries[0]?.miss.assertion_text ?? '',
      ...agreementOf(entries),
      wrong: wrong(entries),
    }),
  );
  const calibration: Calibration = {
    schema_version: 1,
    ...agreementOf(labelled),
    min_kappa: minKappa,
    runs: [...options.runDirs],
    ignored,
    by_judge,
    by_assertion,
  };
  if (options.record !== false) await recordCalibration(options.runDirs, calibration, options.now ?? new Date());
  return calibration;
}

/** A run folder's labels on judged pass/fail verdicts, each with its ground truth and the verdict the run has now. */
async function labelsOf(runDir: string): Promise<{ labelled: Labelled[]; ignored: number }> {
  const feedback = await readFeedback(runDir);
  if (feedback.status === 'invalid')
    throw new SkevalError({
      code: 'usage',
      message: `${join(runDir, 'feedback.json')}: ${feedback.detail}; fix or remove the file, then label the verdicts again with skeval report ${runDir} --serve`,
    });
  const labels = feedback.status === 'ok' ? (feedback.value.skeval?.labels ?? []) : [];
  if (!labels.length) return { labelled: [], ignored: 0 };
  const { runs } = await readRunFolder(runDir);
  const byRun = new Map(runs.map((run) => [reviewRunIdOf(runDir, run.dir), run.grading]));
  const labelled: Labelled[] = [];
  let ignored = 0;
  for (const label of labels) {
    const entry = labelledOf(runDir, label, byRun.get(label.run_id));
    if (entry) labelled.push(entry);
    else ignored += 1;
  }
  return { labelled, ignored };
}

function labelledOf(
  runDir: string,
  label: AssertionReview,
  grading: Awaited<ReturnType<typeof readRunFolder>>['runs'][number]['grading'] | undefined,
): Labelled | undefined {
  if (!grading || (label.verdict !== 'pass' && label.verdict !== 'fail')) return undefined;
  const rows = grading.assertion_results;
  const row =
    rows[label.assertion_index]?.text === label.assertion_text
      ? rows[label.assertion_index]
      : rows.find((entry) => entry.text === label.assertion_text);
  if (row?.grader !== 'judge' || (row.status !== 'pass' && row.status !== 'fail')) return undefined;
  const truth = label.label === 'agree' ? label.verdict : flipped(label.verdict);
  const judgeModel = row.escalation?.model ?? grading.judge?.model ?? 'unknown';
  return {
    judge: row.status,
    truth,
    judgeModel,
    miss: {
      run_dir: runDir,
      run_id: label.run_id,
      case_id: label.case_id,
      assertion_index: label.assertion_index,
      assertion_text: label.assertion_text,
      judge: judgeModel,
      verdict: row.status,
      truth,
      ...(label.note ? { note: label.note } : {}),
    },
  };
}

/** Writes what summary.json keeps of the calibration into each run folder read (one that has a summary.json). */
async function recordCalibration(runDirs: readonly string[], calibration: Calibration, now: Date): Promise<void> {
  const record: CalibrationRecord = {
    measured_at: now.toISOString(),
    labels: calibration.labels,
    kappa: calibration.kappa,
    agreement: calibration.agreement,
    min_kappa: calibration.min_kappa,
    by_judge: calibration.by_judge.map(({ judge, labels, kappa, agreement, below_floor }) => ({
      judge,
      labels,
      kappa,
      agreement,
      below_floor,
    })),
  };
  for (const runDir of runDirs) {
    const summary = await readRunSummary(runDir);
    if (summary.status !== 'ok') continue;
    await writeJsonAtomic(join(runDir, runFiles.summary), { ...summary.value, calibration: record });
  }
}
