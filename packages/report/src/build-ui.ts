import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The report page's script and style sheet, compiled from src/ui/ (Preact, markdown-it, DOMPurify) into two strings. */
export interface BuiltUi {
  script: string;
  style: string;
}

/**
 * Compiles the page's UI. tsup.config.ts calls it at build time and puts the result into the
 * package as two strings; from source (tests), src/ui-assets.ts calls it on first use. Either way
 * the text is checked for what would end its inline element early.
 */
export async function buildReportUi(): Promise<BuiltUi> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./ui/main.tsx', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'eof',
    charset: 'ascii',
    write: false,
    outdir: 'ui',
    logLevel: 'silent',
  });
  const textOf = (extension: string) => result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? '';
  // `<!--` in a script element's text changes how HTML finds its end; esbuild already writes
  // `</script` as `<\/script`. Every `<!--` in the bundle sits in a string, template or regular
  // expression, where `\x3C` means the same `<`.
  const built = { script: textOf('.js').replaceAll('<!--', '\\x3C!--'), style: textOf('.css') };
  if (!built.script) throw new Error('build-ui: esbuild produced no script');
  if (/<\/script|<!--/i.test(built.script)) throw new Error('build-ui: the script holds </script or <!--');
  if (/<\/style/i.test(built.style)) throw new Error('build-ui: the style sheet holds </style');
  return built;
}
