// Child process for the workspace lease tests: `try <folder> <servers dir>` prints "served" or "attached",
// then stays alive (holding what it got) until it is killed or its stdin closes.
import { tryLeaseFolder } from '../../src/core/mcp/workspaceLease';

async function main(): Promise<void> {
  const [, folder, dir] = process.argv.slice(2);
  const attempt = await tryLeaseFolder(folder, dir);
  process.stdout.write(attempt.held ? 'served\n' : 'attached\n');
  process.stdin.resume();
  process.stdin.on('end', () => {
    void (attempt.held ? attempt.lease.release() : Promise.resolve()).then(() => process.exit(0));
  });
}

void main();
