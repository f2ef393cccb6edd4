import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { stderrGist } from '../../../../../src/core/agents/doctor/stderrGist';

/** The doctor quotes what a server's stderr said went wrong, not the tail of a stack trace. */
describe('stderrGist: one line of what a failed server said', () => {
  it("a Node.js crash gives its error line, not '} | | Node.js vN'", () => {
    const crash = spawnSync(process.execPath, ['/nonexistent/governor/cli.js'], { encoding: 'utf8' }).stderr;
    assert.match(crash, /Node\.js v\d/);
    assert.equal(stderrGist(crash), "Error: Cannot find module '/nonexistent/governor/cli.js'");
  });

  it('other output keeps its last meaningful lines', () => {
    assert.equal(stderrGist('starting\nlistening on 3000\nfatal: the token file is missing\n'), 'starting | listening on 3000 | fatal: the token file is missing');
    assert.equal(stderrGist('}\n\n'), '}');
  });
});
