import type { HookApprovals } from '../core/userHooks/hookApprovals';
import { matcherText, NOT_FOR_CLAUDE_CODE, typeText, visible, type HookListing, type HookListingRow } from '../core/userHooks/hookListing';
import type { HookSpec } from '../core/userHooks/hookSpec';
import type { CliIO } from './cliCommand';

/**
 * `governor hooks trust`: a person at a terminal reads every project hook that is not approved yet, exactly as
 * it would run, and approves them all by hash, or none. `--yes` is for a script that person runs; anything
 * else without a terminal is refused, since an agent's command has no terminal.
 */
export async function trustHooks(root: string, listing: HookListing, specs: readonly HookSpec[], approvals: HookApprovals, yes: boolean, io: CliIO): Promise<number> {
  for (const p of listing.problems) io.stderr(`governor hooks trust: ${visible(p.file)}: ${visible(p.message)} (its hooks are not shown; fix it and run this again)\n`);
  const pending = listing.hooks.filter((row) => row.state === 'not_approved');
  if (pending.length === 0) {
    io.stdout(`Nothing to approve: every project hook in ${root} is approved.\n`);
    return listing.problems.length ? 1 : 0;
  }
  if (!yes && io.stdinIsTTY !== true) {
    io.stderr(`governor hooks trust: ${pending.length} hook(s) wait for approval, and only a person may approve them. Run this in a terminal to read and answer, or pass --yes in a script you run yourself.\n`);
    return 2;
  }
  io.stdout(`${pending.length === 1 ? 'This hook is' : 'These hooks are'} not approved in ${root}, so ${pending.length === 1 ? 'it does' : 'they do'} not run:\n\n`);
  for (const row of pending) io.stdout(`${describe(row, specs.find((s) => s.id === row.id))}\n`);
  if (!yes) {
    io.stdout(`Approve ${pending.length === 1 ? 'this hook' : `these ${pending.length} hooks`}? They will run on agents' calls from now on, until their text changes. [y/N] `);
    const answer = (await io.readLine?.())?.trim().toLowerCase();
    if (answer !== 'y' && answer !== 'yes') {
      io.stdout('Nothing approved.\n');
      return 1;
    }
  }
  // What was shown is what gets approved: a hook edited since has another hash and stays unapproved.
  const approved = new Set<string>();
  for (const row of pending) {
    if (approved.has(row.approvalHash)) continue;
    await approvals.approve(root, row.approvalHash, row.action);
    approved.add(row.approvalHash);
  }
  io.stdout(`Approved ${pending.length} hook(s).\n`);
  return listing.problems.length ? 1 : 0;
}

/** One hook as the person approves it: where, when, and the exact thing it runs. */
function describe(row: HookListingRow, spec: HookSpec | undefined): string {
  const lines = [`  ${visible(row.source)}  ${row.event}  ${visible(matcherText(row))}  (${typeText(row)})${row.notRunForClaudeCode ? `  ${NOT_FOR_CLAUDE_CODE}` : ''}`];
  const action = spec?.action;
  if (action?.type === 'http') {
    lines.push(`    POST ${visible(action.url)}`);
    for (const [name, value] of Object.entries(action.headers)) lines.push(`      ${visible(name)}: ${visible(value)}`);
    if (action.allowedEnvVars.length) lines.push(`      (headers may use: ${action.allowedEnvVars.map(visible).join(', ')})`);
  } else if (action?.type === 'prompt') {
    const what = action.agent ? 'agent hook, runs as a prompt hook here (no tools)' : 'prompt';
    lines.push(`    ${what}${action.model ? ` (model ${visible(action.model)})` : ''}:`, ...indented(action.prompt));
  } else if (action?.type === 'mcp_tool') {
    lines.push(`    calls the MCP tool ${visible(action.server)}/${visible(action.tool)} (only Claude Code can; here its onFailure decides), input:`, ...indented(JSON.stringify(action.input, null, 2)));
  } else if (action?.type === 'command' && 'args' in action) {
    lines.push(`    runs (no shell): ${visible(JSON.stringify(action.args))}`);
  } else {
    lines.push(action?.type === 'command' && action.shell === 'powershell' ? '    runs (PowerShell -Command):' : '    runs (sh -c):', ...indented(row.action));
  }
  return `${lines.join('\n')}\n`;
}

function indented(text: string): string[] {
  return visible(text.replace(/\t/g, '    '))
    .split('\n')
    .map((line) => `      ${line}`);
}
