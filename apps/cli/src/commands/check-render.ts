import type { CheckEvalsOptions, CheckEvalsResult, CheckPlan } from '@skeval/core';
import type { CheckVerdict } from '@skeval/schema';

const marks: Record<CheckVerdict, string> = { ok: '✓', broken: '✗', vacuous: '✗', weak: '!', unchecked: '·' };

const percent = (share: number | null) => (share === null ? 'n/a' : `${Math.round(share * 100)}%`);

/** Surviving mutants shown in full per skill; the rest are counted. */
const shownSurvivors = 10;

/** `skeval check`'s terminal output: per case its assertions' verdicts with why, the mutants no assertion killed, the totals. */
export function renderCheck(result: CheckEvalsResult, minScore: number | undefined): string {
  const lines: string[] = [];
  const counts: Record<CheckVerdict, number> = { ok: 0, broken: 0, vacuous: 0, weak: 0, unchecked: 0 };
  for (const skill of result.report.skills) {
    const detail = result.details.find((entry) => entry.skill === skill.skill);
    const mutants = skill.cases.flatMap((entry) => entry.mutants);
    const killed = mutants.filter((mutant) => mutant.killed).length;
    lines.push(
      `${skill.skill}: mutation score ${percent(skill.mutation_score)} (${killed} of ${mutants.length} mutant${mutants.length === 1 ? '' : 's'} killed)${minScore !== undefined && skill.mutation_score !== null && skill.mutation_score < minScore ? `, under --min-mutation-score ${minScore}` : ''}`,
    );
    for (const entry of skill.cases) {
      const caseKilled = entry.mutants.filter((mutant) => mutant.killed).length;
      lines.push(
        `  case ${entry.case_id}: ${entry.reference ? `reference ${entry.reference}, ${caseKilled} of ${entry.mutants.length} mutant${entry.mutants.length === 1 ? '' : 's'} killed` : 'no reference'}`,
      );
      for (const assertion of entry.assertions) {
        counts[assertion.verdict] += 1;
        lines.push(
          `    ${marks[assertion.verdict]} ${assertion.verdict.padEnd(9)} #${assertion.index} ${assertion.text}`,
        );
        if (assertion.verdict !== 'ok') lines.push(`      ${assertion.why}`);
      }
      for (const llm of entry.llm_mutants ?? [])
        lines.push(`    plausible wrong answer ${llm.id}: ${llm.killed ? 'caught' : 'ACCEPTED'} (${llm.broke})`);
    }
    const survivors = detail?.survivors ?? [];
    if (survivors.length) lines.push(`  wrong answers your evals accept (${survivors.length}):`);
    for (const { caseId, mutant } of survivors.slice(0, shownSurvivors)) {
      lines.push(`    case ${caseId}: ${mutant.id}`);
      for (const line of mutant.diff.split('\n')) lines.push(`      ${line}`);
    }
    if (survivors.length > shownSurvivors)
      lines.push(`    … and ${survivors.length - shownSurvivors} more (--json lists every mutant)`);
    if (detail?.saved) {
      for (const dir of detail.saved.written) lines.push(`  reference written: ${dir}`);
      for (const dir of detail.saved.kept) lines.push(`  reference kept (one is written there already): ${dir}`);
    }
    if (detail && detail.judgeCalls > 0)
      lines.push(
        `  judge: ${detail.judgeCalls} call${detail.judgeCalls === 1 ? '' : 's'}, ${detail.judgeCostUsd === null ? 'cost unknown' : `$${detail.judgeCostUsd.toFixed(4)}`}`,
      );
  }
  lines.push(
    `verdicts: ${Object.entries(counts)
      .map(([verdict, count]) => `${count} ${verdict}`)
      .join(', ')}`,
  );
  return `${lines.join('\n')}\n`;
}

/** `skeval check --dry-run`: the cases, their references, and the judge calls and cost, before any is made. */
export function renderCheckPlan(plan: CheckPlan, options: CheckEvalsOptions, judgeSkipReason?: string): string {
  const lines: string[] = [];
  for (const { skill, cases } of plan.skills) {
    const withReference = cases.filter((entry) => entry.reference).length;
    lines.push(
      `${skill.name}: ${cases.length} case${cases.length === 1 ? '' : 's'}, ${withReference} with a reference`,
    );
    for (const entry of cases)
      lines.push(
        `  case ${entry.evalCase.id}: ${entry.reference ? `reference ${entry.reference.source}` : (entry.gap ?? 'no reference')}; ${entry.judgedVariants} judged variant${entry.judgedVariants === 1 ? '' : 's'}`,
      );
  }
  for (const entry of plan.invalid) lines.push(`${entry.evalsPath}: not checked, the evals file is invalid`);
  const { judge } = plan;
  if (options.noJudge) lines.push('judge: none (--no-judge): judged claims stay unchecked');
  else if (!judge)
    lines.push(`judge: none: judged claims stay unchecked${judgeSkipReason ? ` (${judgeSkipReason})` : ''}`);
  else {
    const cost = judge.costUsd
      ? judge.costUsd.low === judge.costUsd.high
        ? `$${judge.costUsd.high.toFixed(4)}`
        : `$${judge.costUsd.low.toFixed(4)} to $${judge.costUsd.high.toFixed(4)}`
      : 'cost unknown (no price for the model)';
    lines.push(`judge: ${judge.calls} call${judge.calls === 1 ? '' : 's'}, one per judged variant; ${cost}`);
  }
  const llm = llmCalls(plan, options);
  if (llm)
    lines.push(
      `plausible wrong answers: ${llm} call${llm === 1 ? '' : 's'} to the judge's model, one per case with a reference`,
    );
  return `${lines.join('\n')}\n`;
}

/** One call per case with a reference writes its plausible wrong answers. */
export function llmCalls(plan: CheckPlan, options: CheckEvalsOptions): number {
  if (!options.llmMutants || !options.judge.model) return 0;
  return plan.skills.reduce((total, skill) => total + skill.cases.filter((entry) => entry.reference).length, 0);
}
