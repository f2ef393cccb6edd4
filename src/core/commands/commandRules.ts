import { posix } from 'node:path';
import { ARCHIVE_RULES } from './archiveRules';
import type { CommandRule } from './commandRule';
import { FILE_RULES } from './fileRules';
import { fd, find } from './findRule';
import { git } from './gitRules';
import { NETWORK_RULES } from './networkRules';
import { PACKAGE_RULES } from './packageRules';
import { READ_ONLY_RULES } from './readOnlyRules';
import { RUNNER_RULES } from './runnerRules';
import { sed } from './sedRule';
import { SHELL_RULES } from './shellRules';
import { SYSTEM_PREFIXES, SYSTEM_RULES } from './systemRules';
import { WRAPPER_RULES } from './wrapperRules';

/** Every program we can classify, by name. A program missing here asks: it could do anything. */
export const COMMAND_RULES: Record<string, CommandRule> = {
  ...READ_ONLY_RULES,
  ...FILE_RULES,
  sed,
  find,
  fd,
  ...NETWORK_RULES,
  ...ARCHIVE_RULES,
  git,
  ...PACKAGE_RULES,
  ...RUNNER_RULES,
  ...WRAPPER_RULES,
  ...SHELL_RULES,
  ...SYSTEM_RULES,
};

// A program run by path is the one we know only when it comes from a system directory.
const SYSTEM_BIN = /^\/(usr\/(local\/)?)?s?bin$|^\/opt\/homebrew\/bin$/;

export type RuleLookup = { ok: true; name: string; rule: CommandRule } | { ok: false; why: string };

export function lookupRule(program: string): RuleLookup {
  if (program.includes('/')) {
    if (!SYSTEM_BIN.test(posix.dirname(posix.normalize(program)))) return { ok: false, why: 'runs a program from outside the system directories, which could be anything' };
    return lookupRule(posix.basename(program));
  }
  if (Object.hasOwn(COMMAND_RULES, program)) return { ok: true, name: program, rule: COMMAND_RULES[program] };
  const family = SYSTEM_PREFIXES.find(([prefix]) => program.startsWith(prefix));
  if (family) return { ok: true, name: program, rule: family[1] };
  return { ok: false, why: 'not a command we know, and an unknown program could do anything' };
}
