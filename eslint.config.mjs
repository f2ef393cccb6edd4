// @ts-check
// Lint is the layering rule (DESIGN.md, "Layers"): imports point down only, and no file imports itself back through
// others. Nothing else is enforced here; TypeScript's own checks (npm run typecheck) cover the rest.
import { readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'eslint/config';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const ROOT = dirname(fileURLToPath(import.meta.url));
const SRC = join(ROOT, 'src');
const CORE = join(SRC, 'core');

/**
 * src/core's layers, bottom to top (CONTRIBUTING.md, "Layout and build"). A file imports from its own layer and the
 * layers below, never from a layer above (imports/core-layers). A unit is a folder of src/core or a file directly in
 * it; every unit is in exactly one layer, so a new one has to be placed here before it lints.
 */
export const CORE_LAYERS = [
  ['toolError.ts', 'logger.ts', 'contentHash.ts', 'lowerHex.ts', 'wildcardMatch.ts', 'beforeDeadline.ts', 'process', 'approval', 'changeClass'], // 0 leaves: import nothing from src/core but this layer (lowerHex: the hex tail of hashes and key ids; wildcardMatch: the two-pointer `*` match of scope globs and mcp_tools; approval: modes, standing approvals, the approver port and cancellation, which waits with beforeDeadline)
  ['ioError.ts', 'workspace.ts'], // 1 I/O errors, the workspace port
  ['io', 'git', 'nodeWorkspace.ts', 'localServer', 'managed', 'paths'], // 2 git run as a process (blobs at a ref, attributes); regular-file reads, cross-process locks, process identity, line readers; the workspace over Node's fs; the loopback server and its route table; the administrator's managed settings file; the canonicaliser and protected paths (the managed file's among them)
  ['intents', 'signing', 'redaction', 'telemetry'], // 3 the intents file; signing keys, record signatures, published signers; secrets redacted from what is recorded; the OpenTelemetry export of records
  ['trace'], // 4 Agent Trace records, hash chain, writer, verify with the signature audit, blame
  ['policy', 'commands', 'sandbox', 'watch'], // 5 scope (and the trace's scope audit), optimistic and per-path locks; the shell command classifier; the operating-system sandbox commands run in; ungoverned changes (call windows, the explained-or-not decision)
  ['intentMap', 'sessions'], // 6 the intent map; live sessions, intent bindings, the read ledger
  ['pipeline', 'guards', 'userHooks', 'governorServices.ts'], // 7 the engine and per-call facts; the built-in guards; the user-hook engine; the ports a call runs against
  ['tools'], // 8 governed tool definitions and the registry
  ['governor.ts', 'flow', 'nodeServices.ts'], // 9 the pipeline every door calls (its one entry; the flow: request, gate, modes); services over plain Node
  ['agents', 'mcp'], // 10 doors: each agent's dialect, installer and the hook protocol; the MCP server
  ['bridge', 'approvalRelay'], // 11 the hook bridge; the cross-window approval relay
];

/**
 * Imports the rules let through for now, each waiting for a move in code that another change owns:
 * [importer, imported, the move that removes it]. Delete the entry with the import: an entry whose import is gone
 * is an error, so this list only shrinks.
 */
export const KNOWN_UPWARD_IMPORTS = [
];
export const KNOWN_CYCLE_IMPORTS = [
];

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

/** Known imports as [importer, imported] absolute paths, for the rule that lets them through. */
const known = (entries) => entries.map(([from, to]) => ({ from: join(ROOT, from), to: join(ROOT, to), label: `${from} -> ${to}` }));
const UPWARD_EXCEPTIONS = known(KNOWN_UPWARD_IMPORTS);
const CYCLE_EXCEPTIONS = known(KNOWN_CYCLE_IMPORTS);
const LAYER_OF = new Map(CORE_LAYERS.flatMap((units, layer) => units.map((unit) => [unit, layer])));

function isFile(path) {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false; // ENOTDIR: a file where the path needs a folder
  }
}
const shown = (file) => relative(ROOT, file).split(sep).join('/');

/**
 * What a file's text imports by relative specifier, resolved to files: static and type-only imports, re-exports,
 * `import()` and `require()` (TypeScript's own import scanner; comments and strings are not imports).
 */
function importsIn(file, text) {
  const last = lastScan.get(file);
  if (last?.text === text) return last.found;
  const found = [];
  for (const { fileName, pos, end } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = resolve(dirname(file), fileName);
    const target = [`${base}.ts`, base, join(base, 'index.ts')].find((candidate) => candidate.endsWith('.ts') && isFile(candidate));
    if (target) found.push({ target, pos, end });
  }
  lastScan.set(file, { text, found });
  return found;
}
/** Each file's last scanned text and its imports: both rules lint the same text, and the graph reads the same file. */
const lastScan = new Map();

/**
 * The import graph of src as files on disk say, for the cycle rule. Each file is read once and again only when it
 * changed; whether it changed is checked once per generation, a second at most, so an editor's long-lived ESLint
 * sees saved edits while a full run reads every file once.
 */
const graph = {
  files: new Map(),
  generation: 0,
  startedAt: 0,
  /** Tarjan's strongly connected components of this generation, found from each file the first time it is asked about. */
  scc: { counter: 0, index: new Map(), low: new Map(), stack: [], onStack: new Set(), component: new Map() },

  refresh() {
    if (Date.now() - this.startedAt < 1000) return;
    this.generation += 1;
    this.startedAt = Date.now();
    this.scc = { counter: 0, index: new Map(), low: new Map(), stack: [], onStack: new Set(), component: new Map() };
  },

  /** The src files `file` imports on disk, less the known cycle imports. */
  edges(file) {
    let entry = this.files.get(file);
    if (entry?.generation !== this.generation) {
      const stat = statSync(file, { throwIfNoEntry: false });
      if (!stat) return [];
      if (!entry || entry.mtimeMs !== stat.mtimeMs || entry.size !== stat.size) {
        const targets = importsIn(file, readFileSync(file, 'utf8')).map((i) => i.target);
        entry = { mtimeMs: stat.mtimeMs, size: stat.size, targets: targets.filter((target) => inSrc(target) && !excepted(CYCLE_EXCEPTIONS, file, target)) };
        this.files.set(file, entry);
      }
      entry.generation = this.generation;
    }
    return entry.targets;
  },

  /** The files on a circle with `file` (itself included), or just `file` when it is on none. */
  component(file) {
    const s = this.scc;
    if (s.component.has(file)) return s.component.get(file);
    const visit = (v) => {
      s.index.set(v, s.counter);
      s.low.set(v, s.counter++);
      s.stack.push(v);
      s.onStack.add(v);
      for (const w of this.edges(v)) {
        if (!s.index.has(w)) {
          visit(w);
          s.low.set(v, Math.min(s.low.get(v), s.low.get(w)));
        } else if (s.onStack.has(w)) s.low.set(v, Math.min(s.low.get(v), s.index.get(w)));
      }
      if (s.low.get(v) !== s.index.get(v)) return;
      const members = new Set();
      let w;
      do {
        w = s.stack.pop();
        s.onStack.delete(w);
        members.add(w);
      } while (w !== v);
      for (const member of members) s.component.set(member, members);
    };
    visit(file);
    return s.component.get(file);
  },

  /** The shortest chain of imports from `start` back to `file` over disk edges, or undefined when there is none. */
  pathBack(start, file) {
    const cameFrom = new Map([[start, undefined]]);
    for (const queue = [start]; queue.length > 0; ) {
      const at = queue.shift();
      if (at === file) {
        const path = [];
        for (let step = at; step !== undefined; step = cameFrom.get(step)) path.unshift(step);
        return path;
      }
      for (const next of this.edges(at)) {
        if (cameFrom.has(next)) continue;
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
    return undefined;
  },
};

const inSrc = (file) => file.startsWith(SRC + sep);
const excepted = (exceptions, from, to) => exceptions.some((e) => e.from === from && e.to === to);
/** src/core's unit of a file: its folder under src/core, or its own name when it sits in src/core itself. */
const coreUnit = (file) => (file.startsWith(CORE + sep) ? relative(CORE, file).split(sep)[0] : undefined);

/** An entry of `exceptions` for this importer whose import is gone: reported so the list only shrinks. */
function reportStale(context, exceptions, imports, listName) {
  const file = context.physicalFilename;
  for (const e of exceptions) {
    if (e.from === file && !imports.some((i) => i.target === e.to)) {
      context.report({ loc: { line: 1, column: 0 }, message: `${shown(file)} no longer imports ${shown(e.to)}: remove "${e.label}" from ${listName} in eslint.config.mjs.` });
    }
  }
}

/** One rule per concern, run on the text being linted (an editor's unsaved buffer included). */
const importRules = {
  rules: {
    'no-cycle': {
      meta: { type: 'problem', schema: [], docs: { description: 'No file in src imports itself back through other files (an import circle).' } },
      create(context) {
        return {
          Program() {
            const file = context.physicalFilename;
            const text = context.sourceCode.text;
            const imports = importsIn(file, text).filter((i) => inSrc(i.target));
            reportStale(context, CYCLE_EXCEPTIONS, imports, 'KNOWN_CYCLE_IMPORTS');
            graph.refresh();
            const own = imports.filter((i) => !excepted(CYCLE_EXCEPTIONS, file, i.target));
            // Linting the file as saved (a CLI run): its circle is its strongly connected component. Otherwise (a
            // buffer, a test) its own imports differ from the graph's, so each is followed back to it.
            const saved = isFile(file) && sameTargets(graph.edges(file), own.map((i) => i.target));
            const circle = saved ? graph.component(file) : undefined;
            for (const { target, pos, end } of own) {
              if (circle && !circle.has(target)) continue;
              const back = target === file ? [file] : graph.pathBack(target, file);
              if (!back) continue;
              const chain = [file, ...back].map(shown).join(' -> ');
              context.report({
                loc: { start: context.sourceCode.getLocFromIndex(pos), end: context.sourceCode.getLocFromIndex(end) },
                message: `Import circle: ${chain} (imports/no-cycle). Break it at the seam: move what both sides need into a file of its own in the lower layer, or pass it in as a function.`,
              });
            }
          },
        };
      },
    },
    'core-layers': {
      meta: { type: 'problem', schema: [], docs: { description: "In src/core, imports point down CORE_LAYERS only." } },
      create(context) {
        return {
          Program() {
            const file = context.physicalFilename;
            const unit = coreUnit(file);
            if (unit === undefined) return;
            const layer = LAYER_OF.get(unit);
            if (layer === undefined) {
              context.report({ loc: { line: 1, column: 0 }, message: `src/core/${unit} is in no layer of CORE_LAYERS (eslint.config.mjs): add it to the layer it belongs to, by what it imports and what imports it (imports/core-layers).` });
              return;
            }
            const imports = importsIn(file, context.sourceCode.text);
            reportStale(context, UPWARD_EXCEPTIONS, imports, 'KNOWN_UPWARD_IMPORTS');
            for (const { target, pos, end } of imports) {
              const to = coreUnit(target);
              const above = to === undefined ? undefined : LAYER_OF.get(to);
              if (above === undefined || above <= layer || excepted(UPWARD_EXCEPTIONS, file, target)) continue;
              context.report({
                loc: { start: context.sourceCode.getLocFromIndex(pos), end: context.sourceCode.getLocFromIndex(end) },
                message: `src/core/${unit} (layer ${layer}) imports src/core/${to} (layer ${above}), a layer above it: in src/core imports point down only (imports/core-layers, CORE_LAYERS in eslint.config.mjs). Move what both need into the lower layer, or pass it in as a function (a port).`,
              });
            }
          },
        };
      },
    },
  },
};

function sameTargets(a, b) {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((target) => right.has(target));
}

export default defineConfig(
  {
    ignores: ['dist/**', '.vscode-test/**', 'test-results/**', 'demo/workspace/**', 'src/core/tools/inputValidators.generated.ts'],
  },
  // The TypeScript parser only (no type information, no recommended rules): parsing is all the layer rules need.
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } },
  layer(['src/**/*.ts'], [VSCODE]),
  layer(['src/core/**/*.ts'], [VSCODE, up(['host', 'cli', 'shared', 'extension'], 'src/core is pure Node and the bottom layer: it imports nothing from src/host, src/cli, src/shared or src/extension.ts. Add a port in src/core instead (view models over the inspector protocol live in src/host).')]),
  layer(['src/cli/**/*.ts'], [VSCODE, up(['host', 'extension'], 'The CLI runs without VS Code: it uses src/core, never src/host or src/extension.ts.')]),
  layer(['src/shared/**/*.ts'], [VSCODE, NODE_BUILTINS, up(['host', 'core', 'cli', 'extension'], 'src/shared is compiled into the webview too: it holds protocol types only and imports nothing else from src.')]),
  layer(['webview-ui/**/*.ts'], [VSCODE, NODE_BUILTINS, [specifier('^(\\./)?(\\.\\./)+src/(?!shared/)'), 'The webview imports only src/shared (the message protocol), never host, core or CLI code.']]),
  { files: ['src/**/*.ts'], plugins: { imports: importRules }, rules: { 'imports/no-cycle': 'error' } },
  { files: ['src/core/**/*.ts'], plugins: { imports: importRules }, rules: { 'imports/core-layers': 'error' } },
  // Last, so it wins over `src/**` above: the host is the one layer that talks to VS Code.
  { files: ['src/host/**/*.ts', 'src/extension.ts'], rules: { '@typescript-eslint/no-restricted-imports': 'off', 'no-restricted-syntax': 'off' } },
);
