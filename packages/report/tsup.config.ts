import { defineConfig } from 'tsup';
import { buildReportUi } from './src/build-ui.js';

export default defineConfig({
  entry: ['src/index.ts', 'src/internal.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  esbuildPlugins: [
    {
      // The page's UI goes into the package as two strings, compiled now: the built package
      // needs neither esbuild nor the UI's libraries at run time.
      name: 'inline-report-ui',
      setup(build) {
        build.onLoad({ filter: /[\\/]src[\\/]ui-assets\.ts$/ }, async () => {
          const assets = await buildReportUi();
          return {
            contents: `const assets = ${JSON.stringify(assets)};\nexport function loadUiAssets() { return Promise.resolve(assets); }\n`,
            loader: 'js',
          };
        });
      },
    },
  ],
});
