import * as vscode from 'vscode';
import { AGENTS, agentById, type HookAgent } from '../../core/agents/registry';
import { detectClaudeHookKind } from '../../core/agents/claude/claudeVersion';
import { applyHookConfig } from '../../core/agents/agentHooks';
import { ensureHookLauncher } from '../../core/agents/common/hookLauncher';
import { governorHome } from '../../core/paths/governorHome';
import { declaredHooks } from '../../core/userHooks/declaredHooks';
import { ensureOrchestrationGitFiles } from '../../core/trace/orchestrationGitFiles';

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
  const written: string[] = [];
  if (mode === 'install' && process.platform !== 'win32') {
    // The hook files name the per-user launcher (activation writes it too; it may have been removed since).
    const problem = await ensureHookLauncher(process.env, cliPath).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (problem !== undefined) void vscode.window.showErrorMessage(`Intent Governor: cannot write the hook launcher (${problem}); the installed hooks refuse every call until it exists.`);
  }
  const claudeHooks = picked.includes('claude') && mode === 'install' ? detectClaudeHookKind().kind : undefined;
  // The resident governor's matchers route every tool event the user's hooks for Claude Code need.
  const declared = mode === 'install' ? (door: string) => declaredHooks(root, governorHome(), door) : undefined;
  for (const agent of picked) {
    for (const change of await applyHookConfig(root, agent, mode, cliPath, { claudeHooks, ...(declared ? { declaredHooks: declared } : {}) })) {
      if (change.action === 'failed') void vscode.window.showErrorMessage(`Intent Governor: ${agentById(agent).label}: ${change.message}`);
      else written.push(change.file);
    }
  }
  if (mode === 'install') {
    // A team shares the logs through git: the merge marks and the ignored scratch files come with the doors.
    await ensureOrchestrationGitFiles(root).then(
      (git) => written.push(...git.written),
      (error: unknown) => void vscode.window.showWarningMessage(`Intent Governor: cannot write the git files of .orchestration/ (${error instanceof Error ? error.message : String(error)}); Check Agent Hooks says what git would do wrong.`),
    );
  }
  if (written.length) void vscode.window.showInformationMessage(`Intent Governor hooks ${mode === 'install' ? 'installed' : 'removed'}: ${written.join(', ')}`);
  return written;
}

export function registerInstallHooksCommand(root: string | undefined, cliPath: string): vscode.Disposable {
  return vscode.commands.registerCommand('intentGovernor.installHooks', (agents?: HookAgent[], mode?: 'install' | 'uninstall') => installAgentHooks(root, cliPath, agents, mode));
}
