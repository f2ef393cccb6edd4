import { matchNames } from '../../userHooks/claudeToolNames';
import type { DeclaredHooks } from '../../userHooks/declaredHooks';
import { matcherMatches, matcherNames } from '../../userHooks/hookMatcher';
import { CLAUDE_READ_ONLY_TOOLS, OWN_MCP_PREFIX } from './claudeDialect';

/**
 * Which of Claude Code's tool events its `mcp_tool` hooks send to the resident governor. Each one is a round trip
 * Claude Code waits for (about 5–10 ms of its own besides the governor's work), so the install routes only the
 * events whose answer is not known in advance:
 *
 * - PreToolUse: every tool but the read-only ones the governor lets through anyway (its answer would be "allow")
 *   and its own MCP tools (judged by the server itself). The matcher is a negative lookahead, so a tool the
 *   governor does not know, and every other MCP server's tool, still reaches it and is refused.
 * - PostToolUse: Read (its post feeds the session's read ledger: the read-to-write lock). A Write or Edit the
 *   governor allowed left its pending record at PreToolUse, and the resident governor completes it itself once
 *   the file holds the change; Bash's post records nothing.
 *
 * A user hook the governor runs for Claude Code (~/.intent-governor/hooks.json, .orchestration/hooks.json or
 * .yaml) widens both: every tool it may match is routed, so the governor still sees the event. A hook file that
 * cannot be read routes everything.
 */
export interface ClaudeRouting {
  /** Read-only tools whose PreToolUse Claude Code does not send. */
  preSkips: string[];
  /** The governor's own MCP tools' PreToolUse is not sent either. */
  preSkipsOwnTools: boolean;
  /** The tools whose PostToolUse Claude Code sends; absent: every tool's. */
  posts?: string[];
}

/** Every tool event, as installed before routing existed (and when a user hook needs every tool). */
export const EVERY_TOOL: ClaudeRouting = { preSkips: [], preSkipsOwnTools: false };

/** Posts the governor needs whatever the user's hooks say: a Read's post records what the model read. */
const POSTS_NEEDED = ['Read'];

/** The native changes the resident governor completes itself when their post is not routed. */
export const SELF_COMPLETED_TOOLS: ReadonlySet<string> = new Set(['Write', 'Edit', 'MultiEdit']);

/** Tools that run after the governor allowed them, each with the governed tools a user hook's matcher also sees. */
const RUNNING_TOOLS: Record<string, string[]> = {
  Write: ['write_file'],
  Edit: ['edit_file'],
  MultiEdit: ['edit_file'],
  Bash: ['run_command'],
  Read: ['read_file'],
  ...Object.fromEntries([...CLAUDE_READ_ONLY_TOOLS].map((tool) => [tool, []])),
};

/** The routing the user's hooks need: what the install writes, and what the resident governor checks on every call. */
export function claudeRouting(declared: DeclaredHooks): ClaudeRouting {
  if (declared.unreadable) return EVERY_TOOL;
  const pre = declared.hooks.filter((hook) => hook.event === 'PreToolUse').map((hook) => hook.matcher);
  const post = declared.hooks.filter((hook) => hook.event === 'PostToolUse').map((hook) => hook.matcher);
  const preSkips = [...CLAUDE_READ_ONLY_TOOLS].filter((tool) => !pre.some((matcher) => matcherMatches(matcher, [tool])));
  // A regular expression or `*` may match some tool of ours: route them all, rather than guess which.
  const preSkipsOwnTools = pre.every((matcher) => matcherNames(matcher)?.every((name) => !name.startsWith(OWN_MCP_PREFIX)) === true);
  if (post.some((matcher) => matcherNames(matcher) === undefined)) return { preSkips, preSkipsOwnTools };
  const hooked = Object.entries(RUNNING_TOOLS).filter(([tool, governed]) => post.some((matcher) => matcherMatches(matcher, matchNames(tool, governed)))).map(([tool]) => tool);
  const ownTools = post.flatMap((matcher) => matcherNames(matcher) ?? []).filter((name) => name.startsWith(OWN_MCP_PREFIX));
  return { preSkips, preSkipsOwnTools, posts: [...new Set([...POSTS_NEEDED, ...hooked, ...ownTools])] };
}

const escape = (name: string) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The PreToolUse matcher: `*`, or a regular expression (Claude Code tests one unanchored, with JavaScript's
 * engine) that fails only for the skipped names themselves: `^(?!(?:Agent|ToolSearch|…)$|mcp__intent-governor__)`.
 */
export function preToolMatcher(routing: ClaudeRouting): string {
  const skipped = [...(routing.preSkips.length ? [`(?:${routing.preSkips.map(escape).join('|')})$`] : []), ...(routing.preSkipsOwnTools ? [escape(OWN_MCP_PREFIX)] : [])];
  return skipped.length ? `^(?!${skipped.join('|')})` : '*';
}

/** The PostToolUse matcher: `*`, or the exact names (a regular expression pinned at both ends when a name has a `-`). */
export function postToolMatcher(routing: ClaudeRouting): string {
  if (routing.posts === undefined) return '*';
  return routing.posts.every((name) => /^[A-Za-z0-9_]+$/.test(name)) ? routing.posts.join('|') : `^(?:${routing.posts.map(escape).join('|')})$`;
}

/** Whether Claude Code sends `event` for `tool` under this routing. */
export function routes(routing: ClaudeRouting, event: 'PreToolUse' | 'PostToolUse', tool: string): boolean {
  if (event === 'PostToolUse') return routing.posts === undefined || routing.posts.includes(tool);
  return !routing.preSkips.includes(tool) && !(routing.preSkipsOwnTools && tool.startsWith(OWN_MCP_PREFIX));
}

/** The routing as the installed hooks tell it to the resident governor (a constant of their input). */
export function routingText(routing: ClaudeRouting): string {
  return JSON.stringify(routing);
}

/** What a hook's input says was installed; a hook without it (an older install, matcher `*`) routes every tool. */
export function parseRouting(text: unknown): ClaudeRouting {
  if (typeof text !== 'string' || text === '') return EVERY_TOOL;
  try {
    const value = JSON.parse(text) as Partial<ClaudeRouting>;
    const names = (list: unknown): list is string[] => Array.isArray(list) && list.every((name) => typeof name === 'string');
    if (!names(value.preSkips) || typeof value.preSkipsOwnTools !== 'boolean' || (value.posts !== undefined && !names(value.posts))) return EVERY_TOOL;
    return { preSkips: value.preSkips, preSkipsOwnTools: value.preSkipsOwnTools, ...(value.posts !== undefined ? { posts: value.posts } : {}) };
  } catch {
    return EVERY_TOOL;
  }
}

/** What `needed` routes that `installed` does not (PreToolUse of ToolSearch, PostToolUse of every tool, …); empty: covered. */
export function routingGaps(installed: ClaudeRouting, needed: ClaudeRouting): string[] {
  const gaps: string[] = [];
  const unsent = installed.preSkips.filter((tool) => !needed.preSkips.includes(tool));
  if (unsent.length) gaps.push(`PreToolUse of ${unsent.join(', ')}`);
  if (installed.preSkipsOwnTools && !needed.preSkipsOwnTools) gaps.push("PreToolUse of the governor's own MCP tools");
  if (installed.posts !== undefined) {
    if (needed.posts === undefined) gaps.push('PostToolUse of every tool');
    else {
      const missing = needed.posts.filter((tool) => !installed.posts?.includes(tool));
      if (missing.length) gaps.push(`PostToolUse of ${missing.join(', ')}`);
    }
  }
  return gaps;
}

/** One line for the person who installs: what Claude Code will not send, and when to install again. */
export function routingNote(routing: ClaudeRouting): string | undefined {
  if (routing.preSkips.length === 0 && !routing.preSkipsOwnTools && routing.posts === undefined) return undefined;
  const pre = routing.preSkips.length || routing.preSkipsOwnTools ? `PreToolUse skips ${routing.preSkips.length} read-only tools${routing.preSkipsOwnTools ? " and the governor's own MCP tools" : ''}` : 'PreToolUse: every tool';
  const post = routing.posts === undefined ? 'PostToolUse: every tool' : `PostToolUse only for ${routing.posts.join(', ')} (allowed writes and edits are completed by the resident governor)`;
  return `${pre}; ${post}; no hook of yours needs more: install again after you change your hooks`;
}
