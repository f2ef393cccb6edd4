// @ts-check
// Lint is the layering rule (DESIGN.md, "Layers"): imports point down only. Nothing else is enforced here;
// TypeScript's own checks (npm run typecheck) cover the rest.
import { builtinModules } from 'node:module';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** A regex source for an import specifier; `/` escaped so the same source works in an esquery selector. */
const specifier = (source) => source.replaceAll('/', '\\/');

const VSCODE = [specifier('^vscode$'), "Only src/host/** and src/extension.ts import 'vscode': the rest runs in plain Node or in a webview. Add a port in src/core and its adapter in src/host."];
/** A relative import that climbs out of the importing folder into one of these top-level folders of src. */
const up = (dirs, message) => [specifier(`^(\\./)?(\\.\\./)+(${dirs.join('|')})(/.*)?$`), message];
const NODE_BUILTINS = [
  specifier(`^(node:.*|(${builtinModules.filter((m) => !m.startsWith('node:')).join('|')})(/.*)?)$`),
  'The webview runs in a browser sandbox: no Node.js modules. Ask the host through a message in src/shared/inspectorProtocol.ts.',
];

/**
 * Bans imports whose specifier matches one of `banned` ([regex source, message]) in `files`: static imports and
 * re-exports, and also `import()` and `require()`, because lazy loading is common here (the CLI's MCP server).
 */
function layer(files, banned) {
  return {
    files,
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: banned.map(([regex, message]) => ({ regex, message })) }],
      'no-restricted-syntax': [
        'error',
        ...banned.flatMap(([regex, message]) => [
          { selector: `ImportExpression[source.value=/${regex}/]`, message },
          { selector: `CallExpression[callee.name='require'][arguments.0.value=/${regex}/]`, message },
        ]),
      ],
    },
  };
}

export default defineConfig(
  {
    ignores: ['dist/**', 'out/**', '.vscode-test/**', 'test-results/**', '.bench-tmp/**', 'demo/workspace/**', 'src/core/tools/inputValidators.generated.ts'],
  },
  // The TypeScript parser only (no type information, no recommended rules): parsing is all the layer rules need.
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } },
  layer(['src/**/*.ts'], [VSCODE]),
  layer(['src/core/**/*.ts'], [VSCODE, up(['host', 'cli', 'shared', 'extension'], 'src/core is pure Node and the bottom layer: it imports nothing from src/host, src/cli, src/shared or src/extension.ts. Add a port in src/core instead (view models over the inspector protocol live in src/host).')]),
  layer(['src/cli/**/*.ts'], [VSCODE, up(['host', 'extension'], 'The CLI runs without VS Code: it uses src/core, never src/host or src/extension.ts.')]),
  layer(['src/shared/**/*.ts'], [VSCODE, NODE_BUILTINS, up(['host', 'core', 'cli', 'extension'], 'src/shared is compiled into the webview too: it holds protocol types only and imports nothing else from src.')]),
  layer(['webview-ui/**/*.ts'], [VSCODE, NODE_BUILTINS, [specifier('^(\\./)?(\\.\\./)+src/(?!shared/)'), 'The webview imports only src/shared (the message protocol), never host, core or CLI code.']]),
  // Last, so it wins over `src/**` above: the host is the one layer that talks to VS Code.
  { files: ['src/host/**/*.ts', 'src/extension.ts'], rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-syntax': 'off' } },
);
