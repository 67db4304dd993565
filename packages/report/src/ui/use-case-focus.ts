import { useCallback, useRef, useState } from 'preact/hooks';
import { type CaseFilter, noFilter } from './filters.js';

/** Which cases are open and which one has the focus, and the ways to change them. */
export function useCaseFocus(setFilter: (filter: CaseFilter) => void) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const [focused, setFocused] = useState<string | null>(null);

  const toggle = useCallback((caseKey: string) => {
    setOpen((previous) => {
      const next = new Set(previous);
      if (next.has(caseKey)) next.delete(caseKey);
      else next.add(caseKey);
      return next;
    });
  }, []);

  // The key handler reads the focused case from here: two quick presses must not both start
  // from the case focused before the page drew the first.
  const focusedRef = useRef<string | null>(null);
  /** The case the user focused itself (with the mouse or Tab). */
  const markFocused = useCallback((caseKey: string) => {
    focusedRef.current = caseKey;
    setFocused(caseKey);
  }, []);
  /** Moves the focus to a case's header and scrolls it into view. */
  const focusCase = useCallback((caseKey: string) => {
    focusedRef.current = caseKey;
    setFocused(caseKey);
    const header = document.querySelector<HTMLElement>(`[data-case-key="${CSS.escape(caseKey)}"] .case-header`);
    header?.focus();
    header?.scrollIntoView({ block: 'nearest' });
  }, []);

  /** Shows a case picked in an overview: filters cleared, the case open and focused once drawn. */
  const pick = useCallback(
    (caseKey: string) => {
      setFilter(noFilter);
      setOpen((previous) => new Set(previous).add(caseKey));
      requestAnimationFrame(() => focusCase(caseKey));
    },
    [focusCase, setFilter],
  );

  return { open, focused, focusedRef, toggle, markFocused, focusCase, pick };
}
