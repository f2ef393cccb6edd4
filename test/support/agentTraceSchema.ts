import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

const schema = JSON.parse(readFileSync(join(__dirname, '..', '..', 'schemas', 'agent-trace-v1.schema.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

/** Fails the test with ajv's errors unless the record is a valid Agent Trace v1 record. */
export function assertAgentTraceRecord(record: unknown, where = 'record'): void {
  const ok = validate(record);
  assert.ok(ok, `${where} is not a valid Agent Trace record: ${ajv.errorsText(validate.errors)}`);
}

/** Validates every line of a JSONL trace file; returns the parsed records. */
export function assertAgentTraceFile(path: string): Record<string, unknown>[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
  return lines.map((line, i) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    assertAgentTraceRecord(record, `line ${i + 1}`);
    return record;
  });
}

/** The parts of an Agent Trace record tests read: the files it names and its metadata. */
export type TraceRecord = {
  files: { path: string }[];
  metadata: Record<string, unknown>;
};
