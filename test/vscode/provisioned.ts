import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const repoRoot = join(__dirname, '..', '..');

/** The stamp scripts/provision-vscode.mjs writes once VS Code (code-server), Node 24 and chromium are in place. */
export interface Provisioned {
  codeServer: string;
  vscode: string;
  node: string;
  paths: {
    /** Node 24, the runtime code-server requires (the machine's own Node is 20). */
    node: string;
    codeServerEntry: string;
    chromium: string;
    /** code-server's config file, kept in the cache so runs never write ~/.config. */
    config: string;
  };
}

const stampPath = join(repoRoot, '.vscode-test', 'ready.json');

/** Reads the provisioning stamp; throws with the command to run when the cache is not there. */
export function readProvisioned(): Provisioned {
  try {
    return JSON.parse(readFileSync(stampPath, 'utf8')) as Provisioned;
  } catch {
    throw new Error(`VS Code is not provisioned (${stampPath} missing): run \`npm run provision\``);
  }
}

/** Runs the provision script (a no-op when the cache is current) with its one-line-per-step output. */
export function provision(): Provisioned {
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'provision-vscode.mjs')], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`provisioning VS Code failed (exit ${result.status ?? result.signal})`);
  return readProvisioned();
}
