import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import { runShellCommand } from '../../../../src/core/process/processRunner';
import { scrubEnv } from '../../../../src/core/process/scrubbedEnv';

describe('scrubEnv', () => {
  const secrets = {
    GITHUB_TOKEN: 'ghp_secret',
    NPM_TOKEN: 'npm_secret',
    OPENAI_API_KEY: 'sk-secret',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    AWS_ACCESS_KEY_ID: 'AKIA_SECRET',
    AWS_SECRET_ACCESS_KEY: 'aws_secret',
    PGPASSWORD: 'pg_secret',
    SSH_AUTH_SOCK: '/tmp/agent.sock',
    DATABASE_URL: 'postgres://app:hunter2@db/app',
    HTTPS_PROXY: 'http://me:hunter3@proxy:3128',
    my_private_key: 'lower-case names count too',
  };
  const harmless = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: os.homedir(),
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    GIT_AUTHOR_NAME: 'Ada Lovelace',
    XDG_SESSION_TYPE: 'wayland',
    NODE_ENV: 'test',
    PROXY_URL: 'http://proxy:3128',
  };

  it('keeps what commands need and nothing that looks like a credential', () => {
    assert.deepEqual(scrubEnv({ ...secrets, ...harmless, UNSET: undefined }), harmless);
  });

  it('leaves no secret visible to a command run with it', async () => {
    const result = await runShellCommand('env', {
      cwd: os.tmpdir(),
      timeoutMs: 15_000,
      maxOutputBytes: 1_000_000,
      env: scrubEnv({ ...process.env, ...secrets, ...harmless }),
    });
    assert.equal(result.exitCode, 0);
    assert.doesNotMatch(result.stdout, /GITHUB_TOKEN|ghp_secret|npm_secret|sk-secret|sk-ant-secret|AKIA_SECRET|aws_secret|pg_secret|hunter2|hunter3/);
    assert.match(result.stdout, /^GIT_AUTHOR_NAME=Ada Lovelace$/m);
    assert.match(result.stdout, /^PATH=/m);
  });
});
