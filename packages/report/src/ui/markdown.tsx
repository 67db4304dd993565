import DOMPurify, { type Config } from 'dompurify';
import MarkdownIt from 'markdown-it';
import { useLayoutEffect, useRef } from 'preact/hooks';

// `html: false`: HTML in the agent's text is shown as text, never parsed as markup; markdown-it
// also refuses javascript:, vbscript:, file: and non-image data: links.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const purifier = DOMPurify(window);
purifier.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A') {
    node.setAttribute('rel', 'noopener noreferrer');
    node.setAttribute('target', '_blank');
  }
});

const sanitizeOptions: Config & { RETURN_DOM_FRAGMENT: true } = {
  RETURN_DOM_FRAGMENT: true,
  // No styles (the CSP would refuse them anyway), no forms or embedded documents.
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed', 'svg', 'math'],
  FORBID_ATTR: ['style', 'class', 'id'],
  ALLOW_DATA_ATTR: false,
};

/**
 * Markdown as sanitised DOM nodes: rendered by markdown-it with HTML off, then passed through
 * DOMPurify, and an image that is not a `data:` URL replaced by its description, so nothing on
 * the page asks the network for anything. The nodes are inserted as nodes; no HTML string of the
 * agent's text is ever assigned to the page.
 */
function renderMarkdown(text: string): DocumentFragment {
  const fragment = purifier.sanitize(markdown.render(text), sanitizeOptions);
  for (const image of Array.from(fragment.querySelectorAll('img'))) {
    const source = image.getAttribute('src') ?? '';
    if (source.startsWith('data:image/')) continue;
    const placeholder = document.createElement('span');
    placeholder.className = 'md-image';
    placeholder.textContent = `[image not loaded: ${image.getAttribute('alt') || 'no description'} (${source})]`;
    image.replaceWith(placeholder);
  }
  return fragment;
}

export function Markdown({ text }: { text: string }) {
  const container = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    container.current?.replaceChildren(renderMarkdown(text));
  }, [text]);
  return <div class="markdown" ref={container} />;
}
