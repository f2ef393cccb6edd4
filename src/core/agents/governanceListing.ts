import { builtInGuardRows, type GuardRow } from '../guards/builtInGuards';
import { declaredHooks } from '../userHooks/declaredHooks';
import { hookListingText, listHooks, visible, type HookListing, type HookListingPorts } from '../userHooks/hookListing';
import { installedDoors, type InstalledDoor } from './doctor/installedDoors';

/**
 * What `governor hooks list` and *Show Hooks* show: everything that governs a call in a workspace, in the order a
 * call meets it. The agent doors `governor hooks install` left (each agent's hook file), the hooks of every layer
 * (user, project, Claude Code's files, managed; they run before the guards, so the guards judge what they rewrite),
 * and the built-in guards, which always run and no file can turn off.
 */

export interface AgentDoorRow extends InstalledDoor {
  layer: 'agent door';
}

/** `--json`: `doors` and `guards` beside the hook listing's own keys, which keep their meaning. */
export interface GovernanceListing extends HookListing {
  doors: AgentDoorRow[];
  guards: GuardRow[];
}

export async function governanceListing(root: string, options: HookListingPorts & { home: string; env?: NodeJS.ProcessEnv }): Promise<GovernanceListing> {
  // A door is current when an install now would write the same file: Claude Code's routing follows the declared hooks.
  const context = { declaredHooks: (door: string) => declaredHooks(root, options.home, door), ...(options.env ? { env: options.env } : {}) };
  const doors = (await installedDoors(root, { context })).map((door): AgentDoorRow => ({ ...door, layer: 'agent door' }));
  const hooks = await listHooks(root, options);
  return { doors, hooks: hooks.hooks, problems: hooks.problems, warnings: hooks.warnings, notes: hooks.notes, guards: builtInGuardRows() };
}

const INDENT = '  ';

export function governanceListingText(listing: GovernanceListing, width = 100): string {
  const lines: string[] = [];
  const doors = listing.doors.filter((door) => door.state !== 'not installed');
  lines.push('Agent doors (agent door: each agent sends its calls here; `governor doctor` checks they refuse):');
  if (doors.length === 0) lines.push(`${INDENT}none installed: run \`governor hooks install\``);
  for (const door of doors) {
    lines.push(`${INDENT}${door.label}: ${visible(door.hookFile)}${door.door ? ` (${door.door})` : ''}: ${door.detail}`);
    if (door.events.length) lines.push(...wrapped(`${INDENT}${INDENT}events: `, door.events.map(visible), width));
  }
  lines.push('', 'Hooks (managed, user, project; before the guards, which judge what they rewrite):');
  const hooks = hookListingText(listing, width).replace(/^No hooks are declared for this workspace\.$/m, `${INDENT}No user, project or managed hooks are declared for this workspace.`);
  lines.push(hooks.trimEnd());
  lines.push('', 'Built-in guards (built-in: every governed call, in this order; no file turns them off):');
  const nameWidth = Math.max(...listing.guards.map((g) => g.name.length));
  for (const guard of listing.guards) lines.push(`${INDENT}${guard.name.padEnd(nameWidth)}  ${guard.phase === 'pre' ? 'before' : 'after '}  ${guard.summary}`);
  return `${lines.join('\n')}\n`;
}

/** `head` then the words joined by ', ', continued under the first word when a line would pass `width`. */
function wrapped(head: string, words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = head;
  for (const [index, word] of words.entries()) {
    const piece = index < words.length - 1 ? `${word},` : word;
    if (line.length > head.length && line.length + 1 + piece.length > width) {
      lines.push(line);
      line = ' '.repeat(head.length);
    }
    line += line.trim() === head.trim() || line.trim() === '' ? piece : ` ${piece}`;
  }
  lines.push(line);
  return lines;
}
