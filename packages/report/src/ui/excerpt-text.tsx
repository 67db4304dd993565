import type { Excerpt } from '../report-data.js';
import { count } from './format.js';

/** Says that a text was cut, and where the whole of it is. */
export function CutNote({ excerpt, where, unit = 'characters' }: { excerpt: Excerpt; where?: string; unit?: string }) {
  if (excerpt.cut === undefined) return null;
  const shown = excerpt.text.length;
  return (
    <p class="cut">
      {shown === 0 ? 'Not shown' : `The first ${count(shown)} characters`} of {count(excerpt.cut)} {unit}, to keep the
      page bounded{where ? `; the whole text is in ${where}` : ''}.
    </p>
  );
}

/** A text as text: never parsed as markup. */
export function TextBlock({ excerpt, where, className }: { excerpt: Excerpt; where?: string; className?: string }) {
  return (
    <>
      <pre class={className ?? 'text'}>{excerpt.text}</pre>
      <CutNote excerpt={excerpt} {...(where === undefined ? {} : { where })} />
    </>
  );
}
