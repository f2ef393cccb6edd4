import { applyPatch } from 'diff';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ApprovalRequest } from '../../core/approval/approver';
import type { ApprovalDialogs } from './modalApprover';
import { REJECT } from './modalApprover';
import type { VirtualDocuments } from '../trace/virtualDocuments';

/** The approver's port over VS Code: native modals and the built-in diff editor on read-only documents. */
export function createApprovalDialogs(root: string, documents: VirtualDocuments): ApprovalDialogs {
  let shown = 0;
  return {
    async modal(title, detail, buttons) {
      // VS Code focuses the first button that is not the close affordance (Enter picks it) and gives Escape to the
      // close affordance. Reject is that affordance when it comes last, so VS Code adds no Cancel; when it comes first
      // (the question's default answer), it cannot be both, so VS Code adds its own Cancel, a dismissal: a rejection.
      const items = buttons.map((button, index): vscode.MessageItem => ({ title: button, isCloseAffordance: button === REJECT && index > 0 }));
      const choice = await vscode.window.showWarningMessage(title, { modal: true, detail }, ...items);
      return choice?.title;
    },
    async openDiff(request) {
      const rel = request.files[0] ?? 'change';
      const sides = await proposedSides(root, rel, request);
      const id = ++shown;
      if (!sides) {
        // The file moved on since the request was made: the patch itself is still worth reading.
        const uri = documents.set(`/approval-${id}/${rel}.diff`, request.diff ?? '');
        await vscode.window.showTextDocument(uri, { preview: true });
        return;
      }
      const left = documents.set(`/approval-${id}/current/${rel}`, sides.before);
      const right = documents.set(`/approval-${id}/proposed/${rel}`, sides.after);
      await vscode.commands.executeCommand('vscode.diff', left, right, `${rel} (current ↔ proposed by ${request.tool})`, { preview: true });
    },
    notice(message) {
      // Not awaited: it resolves only when the message is dismissed, and nothing waits for that.
      void vscode.window.showInformationMessage(message);
    },
  };
}

/**
 * Both whole files, rebuilt by applying the request's patch to what is on disk now; undefined if it no longer
 * applies, or was cut to bound the request (then the patch text itself is shown).
 */
async function proposedSides(root: string, rel: string, request: ApprovalRequest): Promise<{ before: string; after: string } | undefined> {
  if (!request.diff || request.diff_cut) return undefined;
  const before = await readFile(join(root, rel), 'utf8').catch(() => '');
  let after: string | false;
  try {
    after = applyPatch(before, request.diff);
  } catch {
    after = false; // a malformed patch is shown as text, like one that no longer applies
  }
  return after === false ? undefined : { before, after };
}
