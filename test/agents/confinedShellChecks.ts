import { strict as assert } from 'node:assert';
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../../src/core/contentHash';
import { orchestrationJsonl } from './agentWorkspace';

/**
 * What every agent whose own shell runs confined must show with its real binary, the same for each: the commands
 * the scripted model runs, and what the workspace and the trace hold afterwards.
 */

/** An in-scope write that also prints the private temp folder it ran with (only the rewritten command has one). */
export const IN_SCOPE_WRITE = 'echo ok > src/auth/new.ts && echo "tmp=$TMPDIR"';

/** A link made and followed in one command into the plan, and a redirect through a variable out of the scope. */
export const ESCAPES = ['ln -s ../../.orchestration src/auth/o && echo "# pwned" >> src/auth/o/active_intents.yaml', 'd=src/billing; echo x >> "$d/invoice.ts"'];

/** The in-scope write landed, ran confined, and its record names the file with its hash; nothing is left pending. */
export function assertConfinedWriteRecorded(ws: string, agent: string, results: unknown[]): void {
  assert.equal(readFileSync(join(ws, 'src/auth/new.ts'), 'utf8'), 'ok\n', JSON.stringify(results));
  assert.match(JSON.stringify(results[0]), /tmp=\/[^"\\\s]*\/governor-shell-[A-Za-z0-9]{6}/u, 'the rewritten command ran');
  const record = orchestrationJsonl(ws, 'agent_trace.jsonl').at(-1) as { metadata: Record<string, unknown> } | undefined;
  assert.ok(record, 'no trace record');
  assert.equal(record.metadata.tool_name, 'run_command');
  assert.equal(record.metadata.agent, agent);
  assert.equal(record.metadata.intent_id, 'auth-refactor');
  assert.deepEqual(record.metadata.files, [{ path: 'src/auth/new.ts', change: 'created', after_hash: contentHash('ok\n') }]);
  assert.deepEqual(readdirSync(join(ws, '.orchestration/pending')).filter((n) => n.startsWith('native.') && !n.endsWith('.done')), [], 'the pending entry is completed');
}

/** The bytes the escapes aim at, before they run. */
export function escapeTargets(ws: string): Buffer[] {
  return ['.orchestration/active_intents.yaml', 'src/billing/invoice.ts'].map((rel) => readFileSync(join(ws, rel)));
}

/** Both escapes failed on the read-only filesystem and changed nothing; the link itself was made inside the scope. */
export function assertEscapesFailed(ws: string, before: Buffer[], results: unknown[]): void {
  assert.deepEqual(escapeTargets(ws), before);
  assert.equal(results.length, 2, JSON.stringify(results));
  for (const result of results) assert.match(JSON.stringify(result), /Read-only file system/u, JSON.stringify(results));
  assert.ok(lstatSync(join(ws, 'src/auth/o')).isSymbolicLink());
  assert.equal(existsSync(join(ws, 'src/auth/o/active_intents.yaml')), true, 'the link leads to the plan, which it could not change');
}

/**
 * A repository planted in the scope folder (a read-only placeholder refuses it), an agent hook there and a repository
 * in a new folder (both removed by the after-check, on record), next to an ordinary write that lands.
 */
export const PLANTED_HOOKS = 'd=src/auth; mkdir -p $d/.git; echo "[core] fsmonitor = evil" > $d/.git/config; mkdir -p $d/.claude; echo "{}" > $d/.claude/settings.json; mkdir -p $d/n/.git && echo "[core] fsmonitor = evil" > $d/n/.git/config; echo ok > $d/n/ok.ts';

/** No planted path is on disk, the refusals are in the governance log, and the ordinary write is the record. */
export function assertPlantedHooksGone(ws: string, results: unknown[]): void {
  for (const rel of ['src/auth/.git', 'src/auth/.claude', 'src/auth/n/.git']) assert.equal(existsSync(join(ws, rel)), false, `${rel}: ${JSON.stringify(results)}`);
  assert.equal(readFileSync(join(ws, 'src/auth/n/ok.ts'), 'utf8'), 'ok\n');
  assert.match(JSON.stringify(results[0]), /Read-only file system/u, JSON.stringify(results));
  const refusal = orchestrationJsonl(ws, 'governance_log.jsonl').find((r) => (r as { code?: string }).code === 'PROTECTED_PATH') as { paths?: string[] } | undefined;
  assert.deepEqual(refusal?.paths?.sort(), ['src/auth/.claude', 'src/auth/n/.git'], JSON.stringify(orchestrationJsonl(ws, 'governance_log.jsonl')));
  const record = orchestrationJsonl(ws, 'agent_trace.jsonl').at(-1) as { metadata: { files: { path: string }[] } } | undefined;
  assert.deepEqual(record?.metadata.files.map((f) => f.path), ['src/auth/n/ok.ts']);
}
