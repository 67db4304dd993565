import type { UiAssets } from './html/render-html.js';

let compiled: Promise<UiAssets> | undefined;

/**
 * The page's script and style sheet. In the built package tsup.config.ts replaces this module
 * with the two strings compiled at build time; run from source (the tests), it compiles the UI
 * on first use with the same build.
 */
export function loadUiAssets(): Promise<UiAssets> {
  compiled ??= import('./build-ui.js').then(({ buildReportUi }) => buildReportUi());
  return compiled;
}
