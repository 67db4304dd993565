import { type Dispatch, type StateUpdater, useEffect } from 'preact/hooks';
import { type CaseFilter, noFilter } from './filters.js';

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export interface KeyboardShortcutsOptions {
  /** The keys of the cases shown, in page order: j and k move through these. */
  visibleKeys: readonly string[];
  focusedRef: { current: string | null };
  focusCase: (caseKey: string) => void;
  toggle: (caseKey: string) => void;
  searchRef: { current: HTMLInputElement | null };
  setFilter: Dispatch<StateUpdater<CaseFilter>>;
}

/** j / k (or the arrows) next and previous case, o open, / search, f failed only, Esc clear; not while typing. */
export function useKeyboardShortcuts(options: KeyboardShortcutsOptions): void {
  const { visibleKeys, focusedRef, focusCase, toggle, searchRef, setFilter } = options;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target)) {
        if (event.key === 'Escape' && event.target instanceof HTMLElement) event.target.blur();
        return;
      }
      const current = focusedRef.current;
      const position = current === null ? -1 : visibleKeys.indexOf(current);
      const move = (step: number) => {
        const next = visibleKeys[Math.min(visibleKeys.length - 1, Math.max(0, position + step))];
        if (next) focusCase(next);
      };
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          event.preventDefault();
          move(1);
          break;
        case 'k':
        case 'ArrowUp':
          event.preventDefault();
          move(-1);
          break;
        case 'o':
          if (current) toggle(current);
          break;
        case '/':
          event.preventDefault();
          searchRef.current?.focus();
          break;
        case 'f':
          setFilter((previous) => ({ ...previous, failedOnly: !previous.failedOnly }));
          break;
        case 'Escape':
          setFilter(noFilter);
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [visibleKeys, focusedRef, focusCase, toggle, searchRef, setFilter]);
}
