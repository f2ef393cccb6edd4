import * as vscode from 'vscode';
import { runDoctor } from '../../core/agents/doctor/doctor';
import { doctorReportText, type DoctorReport } from '../../core/agents/doctor/doctorReport';
import { nodeDoctorPorts } from '../../core/agents/doctor/nodeDoctorPorts';
import { governorChecks } from '../../core/agents/doctor/governorChecks';
import { doctorPickItems, doctorSummary } from './doctorText';

/**
 * `Intent Governor: Check Agent Hooks (Doctor)`: `governor doctor` in the window. The report goes to the output
 * channel and a quick pick of the agents (picking a broken door reinstalls its hooks); a notification says which
 * doors do not refuse. It runs the commands the workspace's hook files name, so only in a trusted workspace. Returns the report.
 */
export function registerDoctorCommand(root: string | undefined, log: vscode.LogOutputChannel): vscode.Disposable {
  return vscode.commands.registerCommand('intentGovernor.doctor', async (): Promise<DoctorReport | undefined> => {
    if (!root) {
      void vscode.window.showErrorMessage('Intent Governor: open a folder first; agent hooks are checked per workspace.');
      return undefined;
    }
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage("Intent Governor: Check Agent Hooks runs the hook commands in this workspace's agent hook files; trust the workspace first.");
      return undefined;
    }
    const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'Intent Governor: sending a canary write through each installed agent hook…' }, () =>
      runDoctor(root, nodeDoctorPorts, { env: process.env, checks: governorChecks(process.env, vscode.workspace.getConfiguration('intentGovernor').get<string>('telemetry.otlpEndpoint')?.trim() || undefined) }),
    );
    log.info(`doctor:\n${doctorReportText(report)}`);
    const summary = doctorSummary(report);
    const output = 'Show Output';
    const notify = summary.level === 'warning' ? vscode.window.showWarningMessage(summary.text, output) : vscode.window.showInformationMessage(summary.text, output);
    void notify.then((choice) => choice === output && log.show(true));
    // Not awaited: the command returns the report while the person reads the list.
    void vscode.window
      .showQuickPick(doctorPickItems(report), { title: `Agent hooks: a canary write to ${report.canary.path} through each installed door`, matchOnDescription: true, matchOnDetail: true })
      .then(async (picked) => {
        if (picked?.reinstall) await vscode.commands.executeCommand('intentGovernor.installHooks', [picked.agent]);
      });
    return report;
  });
}
