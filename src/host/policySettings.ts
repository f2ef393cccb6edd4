import * as vscode from 'vscode';
import type { GovernancePolicy } from '../core/governorServices';

const SECTION = 'intentGovernor';

/**
 * Keeps the live policy in step with the editor: `trusted` follows Workspace Trust (an untrusted workspace
 * refuses commands and asks before every write), `approveWrites` follows the setting. The policy object is
 * read on every call, so changes apply to the next call without rebuilding anything.
 */
export function bindPolicy(policy: GovernancePolicy): vscode.Disposable {
  const readSettings = () => {
    policy.approveWrites = vscode.workspace.getConfiguration(SECTION).get<boolean>('approveWrites', false);
  };
  policy.trusted = vscode.workspace.isTrusted;
  readSettings();
  return vscode.Disposable.from(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      policy.trusted = true;
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.approveWrites`)) readSettings();
    }),
  );
}
