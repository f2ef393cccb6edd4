import { strict as assert } from 'node:assert';
import { join } from 'node:path';
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
      const messages = await lint('src/core/policy/newRule.ts', code);
      assert.equal(messages.length, 1, `${code}: ${messages.join('\n')}`);
      assert.match(messages[0], /Only src\/host\/\*\* and src\/extension\.ts import 'vscode'/);
    }
  });

  it('refuses src/host, src/cli, src/shared and src/extension.ts in src/core, at any depth', async () => {
    assert.match((await lint('src/core/governor.ts', "import type { IntentGovernorApi } from './../host/extensionApi';\n")).join('\n'), /imports nothing from src\/host/);
    assert.match((await lint('src/core/hooks/user/x.ts', "import { mcpCommand } from '../../../cli/mcpCommand';\n")).join('\n'), /imports nothing from src\/host/);
    assert.match((await lint('src/core/x.ts', "export const main = import('../cli/main');\n")).join('\n'), /src\/core is pure Node/);
    assert.match((await lint('src/core/x.ts', "import { activate } from '../extension';\n")).join('\n'), /src\/core is pure Node/);
    assert.match((await lint('src/core/trace/x.ts', "import type { InspectorRow } from '../../shared/inspectorProtocol';\n")).join('\n'), /imports nothing from src\/host, src\/cli, src\/shared/);
    assert.deepEqual(await lint('src/core/hooks/x.ts', "import { Governor } from '../governor';\nimport { parse } from 'yaml';\nimport { readFile } from 'node:fs/promises';\n"), []);
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
});
