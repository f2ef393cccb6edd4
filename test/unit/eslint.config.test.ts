import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..');

describe('eslint.config.mjs: the layering rule', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: ROOT });

  /** The messages of the rules that fire on `code` as if it were the file at `path`. */
  async function lint(path: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, path) });
    return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
  }

  it("refuses 'vscode' in src/core, in every form of import", async () => {
    for (const code of ["import * as vscode from 'vscode';\n", "import type { Uri } from 'vscode';\n", "export { Uri } from 'vscode';\n", "export const v = import('vscode');\n", "export const v = require('vscode');\n"]) {
      const messages = await lint('src/core/commands/newRule.ts', code);
      assert.equal(messages.length, 1, `${code}: ${messages.join('\n')}`);
      assert.match(messages[0], /Only src\/host\/\*\* and src\/extension\.ts import 'vscode'/);
    }
  });

  it('refuses src/host, src/cli, src/shared and src/extension.ts in src/core, at any depth', async () => {
    assert.match((await lint('src/core/governor.ts', "import type { IntentGovernorApi } from './../host/extensionApi';\n")).join('\n'), /imports nothing from src\/host/);
    assert.match((await lint('src/core/userHooks/deeper/x.ts', "import { mcpCommand } from '../../../cli/mcpCommand';\n")).join('\n'), /imports nothing from src\/host/);
    assert.match((await lint('src/core/x.ts', "export const main = import('../cli/main');\n")).join('\n'), /src\/core is pure Node/);
    assert.match((await lint('src/core/x.ts', "import { activate } from '../extension';\n")).join('\n'), /src\/core is pure Node/);
    assert.match((await lint('src/core/trace/x.ts', "import type { InspectorRow } from '../../shared/inspectorProtocol';\n")).join('\n'), /imports nothing from src\/host, src\/cli, src\/shared/);
    assert.deepEqual(await lint('src/core/mcp/x.ts', "import { Governor } from '../governor';\nimport { parse } from 'yaml';\nimport { readFile } from 'node:fs/promises';\n"), []);
  });

  it('refuses src/host in the CLI, and lets it use src/core', async () => {
    assert.match((await lint('src/cli/x.ts', "import { ModalApprover } from '../host/modalApprover';\n")).join('\n'), /The CLI runs without VS Code/);
    assert.match((await lint('src/cli/x.ts', "import * as vscode from 'vscode';\n")).join('\n'), /import 'vscode'/);
    assert.deepEqual(await lint('src/cli/x.ts', "import { Governor } from '../core/governor';\n"), []);
  });

  it('lets the webview import only the shared protocol: no vscode, no Node.js modules, no host or core code', async () => {
    for (const code of ["import * as vscode from 'vscode';\n", "import { readFile } from 'node:fs/promises';\n", "import { join } from 'path';\n", "import { Governor } from '../src/core/governor';\n", "import { x } from '../src/host/inspectorPanel';\n"]) {
      assert.equal((await lint('webview-ui/newView.ts', code)).length, 1, code);
    }
    assert.deepEqual(await lint('webview-ui/newView.ts', "import type { HostMessage } from '../src/shared/inspectorProtocol';\nimport { h } from './dom';\n"), []);
    assert.equal((await lint('src/shared/newProtocol.ts', "import { readFileSync } from 'fs';\n")).length, 1);
  });

  it("lets src/host and src/extension.ts import 'vscode' and every layer below", async () => {
    assert.deepEqual(await lint('src/host/newView.ts', "import * as vscode from 'vscode';\nimport { Governor } from '../core/governor';\nimport type { HostMessage } from '../shared/inspectorProtocol';\n"), []);
    assert.deepEqual(await lint('src/extension.ts', "import * as vscode from 'vscode';\nimport { Governor } from './core/governor';\n"), []);
  });

  describe('src/core imports point down its layers (imports/core-layers)', () => {
    it('refuses an import from a lower layer into a higher one, naming both and the rule, in every form of import', async () => {
      for (const code of ["import { matchScope } from '../policy/scope';\n", "import type { ScopeError } from '../policy/scope';\n", "export { matchScope } from '../policy/scope';\n", "export const s = import('../policy/scope');\n", "export const s = require('../policy/scope');\n"]) {
        const messages = await lint('src/core/trace/newReader.ts', code);
        assert.equal(messages.length, 1, `${code}: ${messages.join('\n')}`);
        assert.match(messages[0], /^imports\/core-layers: src\/core\/trace \(layer \d+\) imports src\/core\/policy \(layer \d+\), a layer above it/);
      }
      assert.match((await lint('src/core/userHooks/newHook.ts', "import { AGENTS } from '../agents/registry';\n")).join('\n'), /src\/core\/userHooks \(layer \d+\) imports src\/core\/agents \(layer \d+\)/);
      // The files directly in src/core are units of their own.
      assert.match((await lint('src/core/contentHash.ts', "import type { Workspace } from './workspace';\n")).join('\n'), /src\/core\/contentHash\.ts \(layer 0\) imports src\/core\/workspace\.ts \(layer 1\)/);
    });

    it('lets a file import its own layer and the layers below', async () => {
      assert.deepEqual(await lint('src/core/commands/newRule.ts', "import { readTrace } from '../trace/traceReader';\nimport type { Intent } from '../intents/intent';\nimport { toolError } from '../toolError';\nimport { matchScope } from './scope';\n"), []);
      assert.deepEqual(await lint('src/core/pipeline/newHook.ts', "import type { GovernorServices } from '../governorServices';\n"), []);
      assert.deepEqual(await lint('src/core/bridge/newRoute.ts', "import type { BridgeRequest } from '../agents/common/nativeCall';\nimport { Governor } from '../governor';\n"), []);
    });

    it('refuses a unit of src/core that no layer lists', async () => {
      assert.match((await lint('src/core/newFolder/x.ts', 'export const x = 1;\n')).join('\n'), /src\/core\/newFolder is in no layer of CORE_LAYERS/);
      assert.match((await lint('src/core/newFile.ts', 'export const x = 1;\n')).join('\n'), /src\/core\/newFile\.ts is in no layer of CORE_LAYERS/);
    });

    it('lets a known upward import through only while it is there', async () => {
      const { KNOWN_UPWARD_IMPORTS } = (await import(pathToFileURL(join(ROOT, 'eslint.config.mjs')).href)) as { KNOWN_UPWARD_IMPORTS: string[][] };
      for (const [from, to] of KNOWN_UPWARD_IMPORTS) {
        assert.deepEqual(await lint(from, readFileSync(join(ROOT, from), 'utf8')), [], from);
        const gone = new RegExp(`no longer imports ${to.replace(/[./]/g, (c) => `\\${c}`)}: remove "${from.replace(/[./]/g, (c) => `\\${c}`)} -> ${to.replace(/[./]/g, (c) => `\\${c}`)}" from KNOWN_UPWARD_IMPORTS`);
        assert.match((await lint(from, 'export const x = 1;\n')).join('\n'), gone);
      }
    });
  });

  describe('no import circles anywhere in src (imports/no-cycle)', () => {
    it('refuses an import that leads back to the importing file, showing the circle', async () => {
      const messages = await lint('src/core/trace/traceChain.ts', "import { verifyLog } from './traceVerify';\n");
      assert.deepEqual(messages, [
        'imports/no-cycle: Import circle: src/core/trace/traceChain.ts -> src/core/trace/traceVerify.ts -> src/core/trace/traceChain.ts (imports/no-cycle). Break it at the seam: move what both sides need into a file of its own in the lower layer, or pass it in as a function.',
      ]);
      // Across folders and outside src/core, through type-only imports too.
      assert.match((await lint('src/host/inspector/recordDetail.ts', "import type { InspectorPanel } from './inspectorPanel';\n")).join('\n'), /Import circle: src\/host\/inspector\/recordDetail\.ts -> src\/host\/inspector\/inspectorPanel\.ts -> src\/host\/inspector\/recordDetail\.ts/);
      assert.match((await lint('src/core/toolError.ts', "export const later = () => import('./ioError');\n")).join('\n'), /Import circle: src\/core\/toolError\.ts -> src\/core\/ioError\.ts -> src\/core\/toolError\.ts/);
    });

    it('passes a file whose imports lead nowhere back to it', async () => {
      for (const file of ['src/core/trace/traceChain.ts', 'src/core/governor.ts', 'src/host/inspector/inspectorPanel.ts']) {
        assert.deepEqual(await lint(file, readFileSync(join(ROOT, file), 'utf8')), [], file);
      }
    });
  });

  it('names only files that exist, and places every unit of src/core in exactly one layer', async () => {
    const configPath = join(ROOT, 'eslint.config.mjs');
    const config = (await import(pathToFileURL(configPath).href)) as { CORE_LAYERS: string[][]; KNOWN_UPWARD_IMPORTS: string[][]; KNOWN_CYCLE_IMPORTS: string[][] };
    const exists = (path: string) => statSync(join(ROOT, path), { throwIfNoEntry: false }) !== undefined;
    const named = readFileSync(configPath, 'utf8').match(/\b(?:src|test|webview-ui|scripts|bench|demo)\/[\w./-]*\.(?:ts|mjs|json|md)\b/g) ?? [];
    assert.ok(named.length > 0);
    for (const path of named) assert.ok(exists(path), `eslint.config.mjs names ${path}, which does not exist`);
    for (const [from, to] of [...config.KNOWN_UPWARD_IMPORTS, ...config.KNOWN_CYCLE_IMPORTS]) assert.ok(exists(from) && exists(to), `${from} -> ${to}`);
    const listed = config.CORE_LAYERS.flat();
    assert.equal(new Set(listed).size, listed.length, 'a unit listed twice');
    const units = readdirSync(join(ROOT, 'src', 'core')).sort();
    assert.deepEqual([...listed].sort(), units, 'CORE_LAYERS lists exactly the folders and files of src/core');
  });
});
