// @stryker-mutator/mocha-runner 10.1.1 requires mocha/lib/cli/run-helpers (and options, collect-files) without an
// extension, and mocha 12.0.3 ships them as .cjs, which require() does not try. Node's .js loader already loads .cjs
// files as CommonJS, so listing the extension lets the runner load mocha 12; drop this when the runner resolves .cjs.
require.extensions['.cjs'] ??= require.extensions['.js'];
