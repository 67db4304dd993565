import type { Configuration } from '@skeval/schema/internal';
import { useEffect, useState } from 'preact/hooks';
import type { ReportCase, ReportData, ReportRun } from '../report-data.js';
import { caseKeyOf } from './filters.js';

/** What a link names: a case (of a skill, when the page holds several), and maybe an arm and a trial. */
export interface LinkTarget {
  caseKey: string;
  arm: Configuration | null;
  runNumber: number | null;
}

/**
 * The address of a case, an arm of it or one trial: `#case=<id>&arm=<arm>&run=<n>`, with
 * `skill=<name>` first when the page holds several skills' runs.
 */
export function linkOf(options: {
  data: ReportData;
  run: ReportRun;
  evalCase: ReportCase;
  arm?: Configuration;
  runNumber?: number;
}): string {
  const params = new URLSearchParams();
  if (options.data.runs.length > 1) params.set('skill', options.run.skill);
  params.set('case', options.evalCase.id);
  if (options.arm) params.set('arm', options.arm);
  if (options.arm && options.runNumber !== undefined) params.set('run', String(options.runNumber));
  return `#${params.toString()}`;
}

/** The case, arm and trial a `#case=…` address names in this page, or `null` when it names none. */
function parseLink(hash: string, data: ReportData): LinkTarget | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const caseId = params.get('case');
  if (caseId === null) return null;
  const skill = params.get('skill');
  for (const run of data.runs) {
    if (skill !== null && run.skill !== skill) continue;
    const evalCase = run.cases.find((entry) => entry.id === caseId);
    if (!evalCase) continue;
    const arm = params.get('arm');
    const known = evalCase.runs.find((entry) => entry.arm === arm)?.arm ?? null;
    const runNumber = Number(params.get('run'));
    const trial = evalCase.runs.some((entry) => entry.arm === known && entry.runNumber === runNumber);
    return { caseKey: caseKeyOf(run, evalCase), arm: known, runNumber: trial ? runNumber : null };
  }
  return null;
}

/**
 * Follows the page's address: when it loads with `#case=…` or the address changes to one, the
 * case is opened (filters cleared) and scrolled to, with the arm and trial it names shown.
 */
export function useDeepLink(data: ReportData, pick: (caseKey: string) => void): LinkTarget | null {
  const [target, setTarget] = useState<LinkTarget | null>(null);
  useEffect(() => {
    const follow = () => {
      const found = parseLink(window.location.hash, data);
      if (!found) return;
      setTarget(found);
      pick(found.caseKey);
      if (found.arm === null) return;
      const selector = `[data-case-key="${CSS.escape(found.caseKey)}"] [data-arm="${CSS.escape(found.arm)}"]`;
      // Two frames: the case opens in the first, its arm is drawn in the next.
      requestAnimationFrame(() => requestAnimationFrame(() => document.querySelector(selector)?.scrollIntoView()));
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [data, pick]);
  return target;
}
