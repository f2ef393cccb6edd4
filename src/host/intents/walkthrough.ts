import * as vscode from 'vscode';

export const WALKTHROUGH_ID = 'firstRun';
/** globalState key: set once the walkthrough was opened on a first run, so it opens once per machine, not per window. */
const SHOWN_KEY = 'intentGovernor.walkthroughShown';

/**
 * Get Started with Intent Governor (opens the walkthrough contributed in package.json), and the first-run opening:
 * VS Code opens an extension's walkthrough on its own only when installed from the Marketplace, not from a VSIX or
 * a code-server `--install-extension`, so the first activation opens it once.
 */
export function registerWalkthrough(context: vscode.ExtensionContext): vscode.Disposable[] {
  const fullId = `${context.extension.id}#${WALKTHROUGH_ID}`;
  const open = () => vscode.commands.executeCommand('workbench.action.openWalkthrough', fullId, false);
  // Our own switch: VS Code's workbench.welcomePage.walkthroughs.openOnInstall is machine-scoped, so an extension
  // host on a remote (code-server) never sees the user's value. Tests turn this one off to keep the editor area quiet.
  const wanted = vscode.workspace.getConfiguration('intentGovernor').get<boolean>('openWalkthroughOnFirstRun', true);
  if (wanted && !context.globalState.get<boolean>(SHOWN_KEY)) {
    void context.globalState.update(SHOWN_KEY, true).then(open, open);
  }
  return [vscode.commands.registerCommand('intentGovernor.openWalkthrough', open)];
}
