import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadRedactionKey } from '../../../../src/core/redaction/redactionKey';
import { detectSecrets, mightHoldSecret } from '../../../../src/core/redaction/secretDetector';
import { SecretRedactor } from '../../../../src/core/redaction/secretRedactor';
import { sampleSecrets } from '../../../support/sampleSecrets';

const MARKER = /\[REDACTED:([a-z0-9-]+):([0-9a-f]{8})\]/g;

describe('SecretRedactor', () => {
  let home: string;
  beforeEach(async () => (home = await mkdtemp(join(tmpdir(), 'ig-redact-'))));
  afterEach(() => rm(home, { recursive: true, force: true }));

  for (const secret of sampleSecrets()) {
    it(`replaces a ${secret.rule} with a keyed marker and keeps the text around it`, async () => {
      assert.ok(mightHoldSecret(secret.text), 'the cheap gate lets the detector see it');
      assert.ok((await detectSecrets(secret.text)).length > 0, 'secretlint finds it');
      const redactor = new SecretRedactor(() => loadRedactionKey(home));
      const text = `curl -s -H "Authorization: ${secret.text}" https://x | sh`;
      const out = await redactor.redactText(text);
      for (const needle of secret.needles) assert.ok(!out.includes(needle), `${needle.slice(0, 12)}… is gone: ${out}`);
      const markers = [...out.matchAll(MARKER)];
      assert.equal(markers.length, 1, out);
      assert.equal(markers[0][1], secret.rule);
      assert.ok(out.startsWith('curl -s -H "Authorization: ') && out.endsWith('" https://x | sh'), out);
      assert.equal(await redactor.redactText(`again ${secret.text}`), `again ${out.slice(27, out.length - 16)}`, 'the same secret gives the same marker');
    });
  }

  it('redacts an AWS secret access key that ends in / or + (secretlint alone misses one key in 32)', async () => {
    const redactor = new SecretRedactor(() => loadRedactionKey(home));
    for (const key of ['Yt8Oce6KVwaa3rXRZNXE1CtOGluMCQWMeAbQS10/', 'p+NlqDHlJ4RxePoXflLRY+owacsq6kAGUK7tSMZ+']) {
      for (const text of [`AWS_SECRET_ACCESS_KEY=${key} aws s3 ls`, `export aws_secret_access_key: "${key}"`, `AWS_SECRET_ACCESS_KEY=${key}`]) {
        const out = await redactor.redactText(text);
        assert.ok(!out.includes(key.slice(0, 39)), out);
        assert.match(out, /\[REDACTED:aws-secret-access-key:[0-9a-f]{8}\]/, out);
      }
    }
  });

  it('redacts all of a password that is a token plus more characters, though the token is found inside it', async () => {
    const token = sampleSecrets().find((secret) => secret.rule === 'github-token')!.text;
    const tail = `-${randomBytes(6).toString('hex')}`;
    const text = `psql postgres://deploy:${token}${tail}@db.example.com:5432/app -c 'select 1'`;
    const spans = (await detectSecrets(text)).map((f) => text.slice(f.start, f.end));
    assert.ok(spans.includes(token) && spans.some((span) => span.length > token.length && span.includes(`${token}${tail}`)), `nested findings: ${spans.join(' | ')}`);
    const out = await new SecretRedactor(() => loadRedactionKey(home)).redactText(text);
    assert.ok(!out.includes(tail) && !out.includes(token.slice(4, 20)), out);
    assert.equal([...out.matchAll(MARKER)].length, 1, out);
    assert.ok(out.startsWith('psql ') && out.endsWith(" -c 'select 1'"), out);
  });

  it('joins nested and overlapping findings into one marker, whatever order the detector reports them in', async () => {
    const text = 'before PASSWORD2024-TOKEN5678-PART9-MORE0 after';
    const at = (part: string) => text.indexOf(part);
    const password = { start: at('PASSWORD'), end: at(' after'), rule: 'password' };
    const token = { start: at('PASSWORD'), end: at('-PART'), rule: 'token' };
    const inner = { start: at('TOKEN'), end: at('-MORE'), rule: 'inner' };
    for (const findings of [[password, token, inner], [inner, token, password], [token, inner, password]]) {
      const out = await new SecretRedactor(() => loadRedactionKey(home), async () => findings.map((f) => ({ ...f }))).redactText(text);
      assert.match(out, /^before \[REDACTED:password:[0-9a-f]{8}\] after$/, JSON.stringify(findings.map((f) => f.rule)));
    }
  });

  it('withholds the whole text when the detector fails, so a secret it could not look at never reaches a record', async () => {
    const secret = sampleSecrets()[0];
    const text = `deploy with ${secret.text} to production`;
    for (const detect of [async () => Promise.reject(new Error('secretlint failed to load')), () => { throw new Error('boom'); }]) {
      const out = await new SecretRedactor(() => loadRedactionKey(home), detect).redactText(text);
      assert.match(out, /^\[REDACTED:unchecked:[0-9a-f]{8}\]$/, out);
      const deep = await new SecretRedactor(() => loadRedactionKey(home), detect).redactDeep({ command: text, paths: ['src/a.ts'] });
      assert.deepEqual(deep, { command: out, paths: ['src/a.ts'] });
    }
  });

  it('keeps nothing per lint in the process: a resident governor redacting all day does not grow', async () => {
    const { performance } = await import('node:perf_hooks');
    const secret = sampleSecrets()[0].text;
    await detectSecrets(`warm ${secret}`);
    const before = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 50; i++) await detectSecrets(`run ${i} ${secret}`);
    assert.equal(performance.getEntriesByType('mark').length, before);
  });

  it('keys markers with the per-user key in the governor home: one key for every writer, private to the user', async () => {
    const secret = sampleSecrets()[0].text;
    const first = await new SecretRedactor(() => loadRedactionKey(home)).redactText(secret);
    const second = await new SecretRedactor(() => loadRedactionKey(home)).redactText(secret);
    assert.equal(first, second);
    assert.equal((await stat(join(home, 'redaction.key'))).mode & 0o777, 0o600);
    assert.match(await readFile(join(home, 'redaction.key'), 'utf8'), /^[0-9a-f]{64}\n$/);
    const other = await mkdtemp(join(tmpdir(), 'ig-redact-other-'));
    try {
      assert.notEqual(await new SecretRedactor(() => loadRedactionKey(other)).redactText(secret), first, 'another user cannot match markers against guesses made with their key');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('does not wake the detector for ordinary paths, identifiers and messages', () => {
    for (const text of [
      'src/core/signing/verifiedSignatureCache.ts',
      'src/auth/session/tokens/refresh_handler_version_two.ts',
      '"src/billing/invoice.ts" is outside the owned scope of intent auth-refactor (src/auth/**).',
      'npm test -- --grep "writes a record per acknowledged change"',
    ]) assert.equal(mightHoldSecret(text), false, text);
    assert.equal(mightHoldSecret(`hf_${'AbCdEfGhIj'.repeat(3)}abcd`), true, 'a letters-only token of 30 or more');
  });

  it('leaves ordinary text, ids and paths untouched and never creates the key for them', async () => {
    const redactor = new SecretRedactor(() => loadRedactionKey(home));
    const record = {
      message: '"src/billing/invoice.ts" is outside the owned scope of intent auth-refactor (src/auth/**).',
      paths: ['src/auth/session/tokens/refresh_handler_version_two.ts'],
      id: '6f1c2a4e-8d1b-4c4e-9a53-0b8f3f3c2d11',
      hash: `sha256:${randomBytes(32).toString('hex')}`,
      n: 3,
    };
    assert.equal(await redactor.redactDeep(record), record);
    await assert.rejects(stat(join(home, 'redaction.key')), /ENOENT/);
  });

  it('redacts a secret deep in a record and keeps its nulls, numbers and clean parts as they were', async () => {
    const secret = sampleSecrets()[0];
    const redactor = new SecretRedactor(() => loadRedactionKey(home));
    const clean = { exit: null, ok: true, n: 0, paths: ['src/a.ts'] };
    assert.equal(await redactor.redactDeep(clean), clean, 'a record with nulls and no secret comes back as it was');
    const record = { clean, call: { argv: ['deploy', `--token=${secret.text}`], exit: null }, n: 3 };
    const out = await redactor.redactDeep(record);
    assert.equal(out.clean, clean, 'the clean part is not copied');
    assert.deepEqual({ ...out, call: { ...out.call, argv: [] } }, { clean, call: { argv: [], exit: null }, n: 3 });
    assert.ok(Array.isArray(out.call.argv), 'an array stays an array');
    assert.equal(out.call.argv[0], 'deploy');
    assert.match(out.call.argv[1], /^--token=\[REDACTED:[a-z0-9-]+:[0-9a-f]{8}\]$/);
    assert.ok(record.call.argv[1].includes(secret.text), 'the record passed in is not changed');
  });

  it('redacts a record whose optional fields are left undefined, and keeps them undefined', async () => {
    const secret = sampleSecrets()[0];
    const redactor = new SecretRedactor(() => loadRedactionKey(home));
    const record: { approval?: string; argv: (string | undefined)[]; command: string } = { approval: undefined, argv: ['deploy', undefined], command: `deploy ${secret.text}` };
    const out = await redactor.redactDeep(record);
    assert.ok('approval' in out && out.approval === undefined);
    assert.deepEqual(out.argv, ['deploy', undefined]);
    for (const needle of secret.needles) assert.ok(!out.command.includes(needle), out.command);
    assert.match(out.command, /^deploy \[REDACTED:[a-z0-9-]+:[0-9a-f]{8}\]$/);
    assert.equal(await redactor.redactDeep(undefined), undefined);
  });

  it('gives a secret found as two touching pieces one marker, so it matches the same secret found whole', async () => {
    const text = 'key=AAAA1111BBBB2222 end';
    const first = { start: 4, end: 12, rule: 'token' };
    const second = { start: 12, end: 20, rule: 'other' };
    const pieces = await new SecretRedactor(() => loadRedactionKey(home), async () => [{ ...second }, { ...first }]).redactText(text);
    const whole = await new SecretRedactor(() => loadRedactionKey(home), async () => [{ start: 4, end: 20, rule: 'token' }]).redactText(text);
    assert.match(pieces, /^key=\[REDACTED:token:[0-9a-f]{8}\] end$/);
    assert.equal(pieces, whole);
  });

  it('gives two secrets apart their own markers and keeps the text between them', async () => {
    const text = 'key=AAAA1111BBBB2222 and key=CCCC3333DDDD4444 end';
    const findings = [{ start: 4, end: 20, rule: 'token' }, { start: 29, end: 45, rule: 'other' }];
    const out = await new SecretRedactor(() => loadRedactionKey(home), async () => findings.map((f) => ({ ...f }))).redactText(text);
    assert.match(out, /^key=\[REDACTED:token:[0-9a-f]{8}\] and key=\[REDACTED:other:[0-9a-f]{8}\] end$/);
  });
});
