import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
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

/** Prints a parse error the way every command does and returns the usage exit code. */
export function usageError(io: CliIO, command: string, message: string): number {
  io.stderr(`governor ${command}: ${message}. Run 'governor ${command} --help'.\n`);
  return 2;
}
