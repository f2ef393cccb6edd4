// Bundles the extension (CJS, `vscode` external) and the `governor` CLI into dist/.
// --watch rebuilds on change; --production minifies and drops sourcemaps.
import { copyFileSync, mkdirSync } from 'node:fs';
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints problem-matcher-friendly start/end lines so a VS Code task can track watch builds. */
const problemMatcherLog = {
  name: 'problem-matcher-log',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/**
 * Every bundle loads mvdan-sh (3 MB of GopherJS, needed only to parse commands) from dist/vendor/ instead of
 * inlining it: compiling it on every start cost ~45-60 ms, and `governor hook` starts once per agent tool call.
 */
const vendorMvdanSh = {
  name: 'vendor-mvdan-sh',
  setup(build) {
    build.onResolve({ filter: /^mvdan-sh$/ }, () => ({ path: './vendor/mvdan-sh.js', external: true }));
    build.onEnd(() => {
      mkdirSync('dist/vendor', { recursive: true });
      copyFileSync('node_modules/mvdan-sh/index.js', 'dist/vendor/mvdan-sh.js');
    });
  },
};

/**
 * The change classifier parses TypeScript and JavaScript with the `typescript` package (9 MB), loaded from
 * dist/vendor/ on the first change to such a file, so no start of the extension, CLI or hook compiles it.
 */
const vendorTypescript = {
  name: 'vendor-typescript',
  setup(build) {
    build.onResolve({ filter: /^typescript$/ }, () => ({ path: './vendor/typescript.js', external: true }));
    build.onEnd(() => {
      mkdirSync('dist/vendor', { recursive: true });
      copyFileSync('node_modules/typescript/lib/typescript.js', 'dist/vendor/typescript.js');
    });
  },
};

/**
 * The OpenTelemetry export (src/core/telemetry/otlpSdk.ts and the @opentelemetry packages, ~680 KB) is its own
 * file, dist/vendor/otel.js, loaded on the first record sent: a hook process that exports nothing never parses it.
 */
const vendorOtel = {
  name: 'vendor-otel',
  setup(build) {
    build.onResolve({ filter: /^\.\/otlpSdk$/ }, () => ({ path: './vendor/otel.js', external: true }));
  },
};

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
  plugins: watch ? [problemMatcherLog] : [],
  // jsonc-parser's `main` is a UMD build that requires its parts at run time, which a bundle cannot follow: its ES build can be bundled.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

const entries = [
  { entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'], plugins: [...common.plugins, vendorMvdanSh, vendorTypescript, vendorOtel] },
  { entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' }, plugins: [...common.plugins, vendorMvdanSh, vendorTypescript, vendorOtel] },
  // `governor hook` alone, for agents' hook commands (one process per tool call), and the headless governor
  // it loads only when no extension runs: both kept apart from the rest of the CLI so they start fast.
  { entryPoints: ['src/cli/hookMain.ts'], outfile: 'dist/hook.js', plugins: [...common.plugins, vendorMvdanSh, vendorTypescript, vendorOtel] },
  { entryPoints: ['src/cli/headlessDecider.ts'], outfile: 'dist/hook-headless.js', plugins: [...common.plugins, vendorMvdanSh, vendorTypescript, vendorOtel] },
  { entryPoints: ['src/core/telemetry/otlpSdk.ts'], outfile: 'dist/vendor/otel.js' },
  // A verify of a large log checks its lines on worker threads, each running this script (traceVerify, parallelLineChecks).
  { entryPoints: ['src/core/trace/lineCheckWorker.ts'], outfile: 'dist/lineCheckWorker.js' },
  // The trace inspector runs in a webview (a browser iframe): one IIFE script and its stylesheet.
  { entryPoints: ['webview-ui/inspector.ts', 'webview-ui/inspector.css'], outdir: 'dist/webview', format: 'iife', platform: 'browser', target: 'es2022' },
];

const contexts = await Promise.all(entries.map((entry) => esbuild.context({ ...common, ...entry })));
if (watch) {
  await Promise.all(contexts.map((ctx) => ctx.watch()));
} else {
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
}
