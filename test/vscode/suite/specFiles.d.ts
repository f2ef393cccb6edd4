// Generated at bundle time by test/vscode/bundleSuite.ts: one entry per test/vscode/suite/**/*.test.ts.
declare module 'intent-governor:vscode-spec-files' {
  export interface SpecFile {
    /** Path relative to test/vscode/suite, for mocha's file attribution. */
    name: string;
    /** Evaluates the spec module (its describe/it calls register tests); lazy so mocha's globals exist first. */
    load(): unknown;
  }
  export const specFiles: readonly SpecFile[];
}
