import * as vscode from 'vscode';
import { AGENTS, agentById, type HookAgent } from '../../core/agents/registry';
import { detectClaudeHookKind } from '../../core/agents/claude/claudeVersion';
import { installDoors } from '../../core/agents/doorsInstall';

/**
 * `Intent Governor: Install Agent Hooks`: writes the hook bridge into each picked agent's hook config in the
 * workspace (a human runs it: these files are protected from agents). `mode` and `agents` skip the pickers.
 */
export async function installAgentHooks(root: string | undefined, cliPath: string, agents?: HookAgent[], mode: 'install' | 'uninstall' = 'install'): Promise<string[] | undefined> {
  if (!root) {
    void vscode.window.showErrorMessage('Intent Governor: open a folder first; hooks are installed per workspace.');
    return undefined;
  }
  const picked =
    agents ??
    (
      await vscode.window.showQuickPick(
        AGENTS.map((agent) => ({ label: agent.label, description: agent.hookFiles, agent: agent.id as HookAgent, picked: true })),
        { title: 'Install Intent Governor hooks for…', canPickMany: true },
      )
    )?.map((item) => item.agent);
  if (!picked?.length) return undefined;
  const claudeHooks = picked.includes('claude') && mode === 'install' ? detectClaudeHookKind().kind : undefined;
  const report = await installDoors(root, { mode, agents: picked, hookScript: cliPath, env: process.env, claudeHooks });
  if (report.launcher && 'problem' in report.launcher) {
    void vscode.window.showErrorMessage(`Intent Governor: cannot write the hook launcher (${report.launcher.problem}); the installed hooks refuse every call until it exists.`);
  }
  const written: string[] = [];
  for (const change of report.changes) {
    if (change.action === 'failed') void vscode.window.showErrorMessage(`Intent Governor: ${agentById(change.agent as HookAgent).label}: ${change.message}`);
    else written.push(change.file);
  }
  // A team shares the logs through git: the merge marks and the ignored scratch files come with the doors.
  if (report.git && 'problem' in report.git) {
    void vscode.window.showWarningMessage(`Intent Governor: cannot write the git files of .orchestration/ (${report.git.problem}); Check Agent Hooks says what git would do wrong.`);
  } else written.push(...(report.git?.written ?? []));
  if (written.length) void vscode.window.showInformationMessage(`Intent Governor hooks ${mode === 'install' ? 'installed' : 'removed'}: ${written.join(', ')}`);
  return written;
}

export function registerInstallHooksCommand(root: string | undefined, cliPath: string): vscode.Disposable {
  return vscode.commands.registerCommand('intentGovernor.installHooks', (agents?: HookAgent[], mode?: 'install' | 'uninstall') => installAgentHooks(root, cliPath, agents, mode));
}
