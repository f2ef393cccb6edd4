import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { CliIO } from './cliCommand';

type Options = NonNullable<ParseArgsConfig['options']>;

export type ParsedCli =
  | { ok: true; values: Record<string, string | boolean | undefined>; positionals: string[] }
  | { ok: false; message: string };

/** `util.parseArgs` in strict mode, with its exception turned into a message for the user. */
export function parseCliArgs(args: string[], options: Options, allowPositionals = false): ParsedCli {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true });
    return { ok: true, values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** `--workspace DIR` (default: the current directory) as an absolute path, or undefined after telling the user why not. */
export async function workspaceFrom(value: unknown, io: CliIO, command: string): Promise<string | undefined> {
  const root = resolve(io.cwd, typeof value === 'string' ? value : '.');
  if (!(await stat(root).catch(() => undefined))?.isDirectory()) {
    io.stderr(`governor ${command}: workspace '${root}' is not a directory. Pass --workspace DIR.\n`);
    return undefined;
  }
  return root;
}

/** The longest piece of a person's argument a message repeats: enough to recognise it, never a wall of text. */
export const ECHO_LIMIT = 120;

/** An argument as a message quotes it, cut to ECHO_LIMIT characters with the length it had. */
export function echoArg(value: string): string {
  if (value.length <= ECHO_LIMIT) return `'${value}'`;
  return `'${value.slice(0, ECHO_LIMIT)}…' (${value.length} characters)`;
}

/** An enum option's value, or a message naming the allowed ones. */
export function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): { ok: true; value: T } | { ok: false; message: string } {
  if ((allowed as readonly string[]).includes(value)) return { ok: true, value: value as T };
  return { ok: false, message: `--${option} ${echoArg(value)} is not one of ${allowed.join(', ')}` };
}

/**
 * A path or glob option as a workspace-relative pattern: an absolute path inside the workspace is made relative,
 * and one that leads out of it (`/etc/passwd`, `../x`) is refused, since no record can name such a file.
 */
export function workspacePattern(option: string, value: string, root: string): { ok: true; value: string } | { ok: false; message: string } {
  const rel = relative(root, resolve(root, value));
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    return { ok: false, message: `--${option} ${echoArg(value)} is outside the workspace ${root}; give a path or glob relative to it` };
  }
  return { ok: true, value: isAbsolute(value) ? rel.split(sep).join('/') : value };
}

/** Prints a parse error the way every command does and returns the usage exit code. */
export function usageError(io: CliIO, command: string, message: string): number {
  // parseArgs quotes unknown options whole; the cap keeps a pasted megabyte out of the terminal.
  const shown = message.length > 4 * ECHO_LIMIT ? `${message.slice(0, 4 * ECHO_LIMIT)}… (${message.length} characters)` : message;
  io.stderr(`governor ${command}: ${shown}. Run 'governor ${command} --help'.\n`);
  return 2;
}
