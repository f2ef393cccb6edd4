import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain ESM script of scripts/ with no type declarations
import { VSIX_README_DIR, vsixReadme } from '../../../scripts/vsixReadme.mjs';
import { headingAnchors, linkTargets } from './docLinks.test';

const REPO = join(__dirname, '..', '..', '..');
const BLOB = 'https://github.com/intent-governor/intent-governor/blob/main';
const RAW = 'https://raw.githubusercontent.com/intent-governor/intent-governor/main';

describe("the VSIX's README (its details page in VS Code)", () => {
  const { text, images } = vsixReadme(readFileSync(join(REPO, 'README.md'), 'utf8'), BLOB, RAW) as { text: string; images: string[] };

  it('is for someone who installed the extension: no clone, npm install or npm start', () => {
    assert.doesNotMatch(text, /npm (install|start|link|run)|From a clone|vsix:omit/);
    assert.match(text, /## Install/);
    assert.match(text, /## First steps/);
  });

  it('says how to get the governor command line from the installed extension', () => {
    assert.match(text, /The `governor` command line/);
    assert.match(text, /exec node "\$dir\/dist\/cli\.js" "\$@"/);
  });

  it("shows its images from the repository over https (VS Code's details page shows no other), and links nothing the VSIX lacks", () => {
    assert.ok(images.length >= 2, images.join(', '));
    for (const image of images) {
      assert.ok(existsSync(join(REPO, image)), image);
      assert.ok(text.includes(`](${RAW}/${image})`), image);
    }
    const anchors = headingAnchors(text);
    for (const target of linkTargets(text)) {
      if (target.startsWith('#')) assert.ok(anchors.has(target.slice(1)), target);
      else assert.match(target, /^https:/u, target);
    }
    assert.ok(linkTargets(text).some((t) => t.startsWith(`${BLOB}/docs/`)), 'the docs pages are linked at the repository');
  });

  it('is the README npm run package hands vsce; the contributor README stays out', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.match(manifest.scripts.package, /node scripts\/vsixReadme\.mjs && vsce package .*--readme-path dist\/vsix\/README\.md/);
    const ignore = readFileSync(join(REPO, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(!ignore.includes('!README.md'), 'the contributor README stays out of the VSIX');
  });
});
