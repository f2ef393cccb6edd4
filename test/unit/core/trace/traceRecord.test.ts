import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { buildGovernanceRecord, buildMutationRecord, buildTraceNote, intentUrl } from '../../../../src/core/trace/traceRecord';
import { assertAgentTraceRecord } from '../../../support/agentTraceSchema';
import { governanceEvent, mutationEvent } from '../../../support/traceFixtures';

const context = { workspaceRoot: '/ws', toolVersion: '1.2.3', revision: 'c'.repeat(40) };
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

describe('traceRecord', () => {
  it('turns a mutation into a schema-valid Agent Trace record linking file ranges, model and intent', () => {
    const record = buildMutationRecord(mutationEvent({ invocation_id: 'inv-9' }), context);
    assertAgentTraceRecord(record);
    assert.deepEqual(record.vcs, { type: 'git', revision: 'c'.repeat(40) });
    assert.deepEqual(record.tool, { name: 'intent-governor', version: '1.2.3' });
    const [file] = record.files;
    assert.equal(file.path, 'src/app.ts');
    assert.deepEqual(file.conversations[0].contributor, { type: 'ai', model_id: 'claude-sonnet-4-5' });
    assert.deepEqual(file.conversations[0].related, [{ type: 'intent', url: 'intent://INT-001' }]);
    assert.deepEqual(file.conversations[0].ranges, [
      { start_line: 2, end_line: 2, content_hash: sha('TWO') },
      { start_line: 4, end_line: 4, content_hash: sha('four') },
    ]);
    assert.equal(record.metadata.intent_id, 'INT-001');
    assert.equal(record.metadata.invocation_id, 'inv-9');
    assert.equal(record.metadata.agent, 'claude-code');
    assert.deepEqual(record.metadata.files, [
      { path: 'src/app.ts', change: 'modified', before_hash: sha('one\ntwo\nthree\n'), after_hash: sha('one\nTWO\nthree\nfour\n') },
    ]);
  });

  it('omits model_id when the agent did not say, and vcs outside a repository', () => {
    const record = buildMutationRecord(mutationEvent({ agent: { name: 'cline' } }), { workspaceRoot: '/ws', toolVersion: '1' });
    assertAgentTraceRecord(record);
    assert.deepEqual(record.files[0].conversations[0].contributor, { type: 'ai' });
    assert.equal('vcs' in record, false);
  });

  it('records a deleted file as an entry with no ranges, marked deleted in metadata', () => {
    const record = buildMutationRecord(mutationEvent({ mutation_class: 'delete', files: [{ path: '/ws/old/gone.ts', before: 'x\n' }] }), context);
    assertAgentTraceRecord(record);
    assert.equal(record.files[0].path, 'old/gone.ts');
    assert.deepEqual(record.files[0].conversations[0].ranges, []);
    assert.deepEqual(record.metadata.files, [{ path: 'old/gone.ts', change: 'deleted', before_hash: sha('x\n') }]);
  });

  it('keeps odd intent ids a valid URI and caps model ids at the schema limit', () => {
    assert.equal(intentUrl('auth refactor/2'), 'intent://auth%20refactor%2F2');
    const record = buildMutationRecord(mutationEvent({ intent_id: 'auth refactor/2', agent: { name: 'x', model_id: 'm'.repeat(300) } }), context);
    assertAgentTraceRecord(record);
  });

  it('writes notes (recovery) as valid records that change no file', () => {
    const note = buildTraceNote('recovery', { bytes: 12 }, context);
    assertAgentTraceRecord(note);
    assert.deepEqual(note.files, []);
    assert.equal(note.metadata.kind, 'recovery');
  });

  it('builds governance records in our own shape with kind governance', () => {
    const record = buildGovernanceRecord(governanceEvent({ decision: 'reject', code: 'HITL_REJECT', approver: 'alice' }), context);
    assert.equal(record.kind, 'governance');
    assert.equal(record.decision, 'reject');
    assert.equal(record.code, 'HITL_REJECT');
    assert.equal(record.approver, 'alice');
    assert.deepEqual(record.agent, { name: 'cursor' });
    assert.deepEqual(record.paths, ['secrets/.env']);
  });
});
