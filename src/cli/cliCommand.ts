/** Where a command writes; tests pass buffers, main passes the process streams. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** Whether stdin is a terminal, i.e. a person can answer a question (absent: no). */
  stdinIsTTY?: boolean;
  /** One line typed on stdin, without its newline; undefined at end of input. */
  readLine?: () => Promise<string | undefined>;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** One `governor <name>` subcommand: parsed and run by main.ts from a table. */
export interface CliCommand {
  name: string;
  summary: string;
  /** Full `--help` text. */
  usage: string;
  /** Returns the process exit code. */
  run(args: string[], io: CliIO): Promise<number>;
}
