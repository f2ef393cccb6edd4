import { join } from 'node:path';
import { parse, type ParseError } from 'jsonc-parser';
import { resolveApprovalSetting, type ApprovalSetting } from '../core/approval/approvalPolicy';
import { describeProblem, readRegularFileSync } from '../core/io/regularFile';
import type { Logger } from '../core/logger';

/** A settings file past this is not one a person wrote. */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/**
 * The approval mode a CLI door (decide, mcp, a hook process, the resident governor) applies: the same setting the
 * extension reads, `intentGovernor.approval` (or the deprecated approveWrites), from the one place a process
 * with no editor can see it, the workspace's .vscode/settings.json; resolved by the extension's own function.
 * A user-level VS Code setting is out of its reach: the answers say the default decided, so the difference shows.
 */
export function workspaceApprovalSetting(root: string, logger?: Logger): ApprovalSetting {
  const file = join(root, '.vscode', 'settings.json');
  // A regular file only, opened without blocking: a FIFO placed there would otherwise hang every CLI door.
  const read = readRegularFileSync(file, { maxBytes: MAX_SETTINGS_BYTES });
  if (!read.ok) {
    if (read.problem.kind !== 'missing') logger?.warn(`${describeProblem(file, read.problem)}; the approval setting is the default`);
    return resolveApprovalSetting(undefined, undefined); // no settings file: the default (which asks)
  }
  const text = read.bytes.toString('utf8');
  const errors: ParseError[] = [];
  const settings: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || typeof settings !== 'object' || settings === null) {
    // VS Code ignores a broken settings file too; the default asks, so nothing is let through by it.
    logger?.warn(`${file} could not be read as JSON with comments; the approval setting is the default`);
    return resolveApprovalSetting(undefined, undefined);
  }
  const values = settings as Record<string, unknown>;
  return resolveApprovalSetting({ workspaceValue: values['intentGovernor.approval'] }, { workspaceValue: values['intentGovernor.approveWrites'] });
}
