import * as vscode from 'vscode';
import type { GovernancePolicy } from '../../core/governorServices';
import { resolveApprovalSetting } from '../../core/approval/approvalPolicy';

const SECTION = 'intentGovernor';

/**
 * Keeps the live policy in step with the editor: `trusted` follows Workspace Trust (an untrusted workspace
 * refuses commands and asks before every write), `approval` follows the setting (or the deprecated
 * `approveWrites`, mapped). The policy object is read on every call, so changes apply to the next call without
 * rebuilding anything.
 */
export function bindPolicy(policy: GovernancePolicy, log?: vscode.LogOutputChannel): vscode.Disposable {
  const readSettings = () => {
    const config = vscode.workspace.getConfiguration(SECTION);
    const setting = resolveApprovalSetting(config.inspect('approval'), config.inspect('approveWrites'));
    policy.approval = setting.mode;
    policy.approvalFrom = setting.from;
    if (setting.deprecation) log?.warn(setting.deprecation);
  };
  policy.trusted = vscode.workspace.isTrusted;
  readSettings();
  return vscode.Disposable.from(
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      policy.trusted = true;
    }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(`${SECTION}.approval`) || event.affectsConfiguration(`${SECTION}.approveWrites`)) readSettings();
    }),
  );
}
