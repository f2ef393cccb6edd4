/** The one logging seam: the host passes its LogOutputChannel, the CLI stderr, tests a recorder. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const nullLogger: Logger = { info() {}, warn() {}, error() {} };
