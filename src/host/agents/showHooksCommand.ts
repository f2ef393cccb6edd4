import * as vscode from 'vscode';
import { FileHookRunLog } from '../../core/userHooks/fileHookRunLog';
import { FileHookApprovals } from '../../core/userHooks/hookApprovals';
import { governanceListing, governanceListingText } from '../../core/agents/governanceListing';
import { governorHome } from '../../core/paths/governorHome';
import { showNoFolderMessage, type GovernedFolder } from '../governedFolder';
import { storeIn } from '../../core/paths/userStores';

/**
 * `Intent Governor: Show Hooks`: what `governor hooks list` prints (doors, hooks, guards), as a read-only document, with the
 * state this window decides by (an untrusted workspace runs only the person's own hooks). Approving stays in
 * the terminal (`governor hooks trust`), where the person reads the exact commands first.
 */
export function registerShowHooksCommand(governed: GovernedFolder | undefined): vscode.Disposable {
  return vscode.commands.registerCommand('intentGovernor.showHooks', async () => {
    if (!governed) return showNoFolderMessage();
    const { services } = governed;
    const home = services.governorHome ?? governorHome();
    const listing = await governanceListing(services.workspace.root, {
      home,
      approvals: services.hookApprovals ?? new FileHookApprovals(),
      runLog: services.hookRunLog ?? new FileHookRunLog(storeIn(home, 'hook-runs')),
      trusted: services.policy.trusted,
    });
    const text = `Hooks for ${services.workspace.root}\n\n${governanceListingText(listing)}`;
    const uri = governed.documents.set('/hooks/Hooks.txt', text);
    await vscode.window.showTextDocument(uri, { preview: false });
    return uri;
  });
}
