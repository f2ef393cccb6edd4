// How the provisioning scripts run apt, npm and tar: output appended to their log, one console line per step.
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Runs a command with its output appended to `logPath`; on failure prints the log's tail and throws. */
export function runLogged(logPath, command, args, options = {}) {
  writeFileSync(logPath, `\n$ ${command} ${args.join(' ')}\n`, { flag: 'a' });
  const fd = openSync(logPath, 'a');
  let result;
  try {
    result = spawnSync(command, args, { stdio: ['ignore', fd, fd], ...options });
  } finally {
    closeSync(fd);
  }
  if (result.status !== 0) {
    console.error(readFileSync(logPath, 'utf8').split('\n').slice(-40).join('\n'));
    const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    throw new Error(`${command} ${args.join(' ')} failed (${why}); full log: ${logPath}`);
  }
}
