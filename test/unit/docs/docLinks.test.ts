import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const REPO = join(__dirname, '..', '..', '..');
const README_MAX_LINES = 300;

/** README.md and every Markdown page under docs/, as repository-relative paths. */
export function userDocs(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link and image target of a page (not the ones in code). */
export function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '');
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Why a relative target of `page` does not resolve, or undefined when it does. */
export function brokenLink(page: string, target: string, root = REPO): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not files of ours
  const [path, anchor] = target.split('#', 2);
  const file = path === '' ? join(root, page) : join(root, dirname(page), decodeURIComponent(path));
  if (relative(root, file).startsWith('..')) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined || statSync(file).isDirectory() || !file.endsWith('.md')) return undefined;
  return headingAnchors(readFileSync(file, 'utf8')).has(anchor) ? undefined : `${target}: no heading with the anchor #${anchor}`;
}

describe('user documentation: README.md and docs/', () => {
  it(`README.md is a page for users: at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(REPO, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines`);
  });

  it('every relative link and image in README.md and docs/**/*.md resolves (file, and heading when it names one)', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of userDocs()) {
      for (const target of linkTargets(readFileSync(join(REPO, page), 'utf8'))) {
        checked += 1;
        const why = brokenLink(page, target);
        if (why) broken.push(`${page}: ${why}`);
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(checked > 50, `only ${checked} links found: is the link pattern still right?`);
  });

  it('hot-links no image of ours: images are files of the repository (so the VSIX can carry them)', () => {
    for (const page of userDocs()) {
      const hotLinked = linkTargets(readFileSync(join(REPO, page), 'utf8')).filter((t) => /raw\.githubusercontent\.com|github\.com\/.*\.(png|gif|svg|jpe?g)$/.test(t));
      assert.deepEqual(hotLinked, [], page);
    }
  });

  it('the checker itself finds a missing file, a missing heading and a link leaving the repository', () => {
    assert.match(brokenLink('README.md', 'docs/nope.md') ?? '', /no such file/);
    assert.match(brokenLink('README.md', 'docs/cli.md#no-such-heading') ?? '', /no heading/);
    assert.match(brokenLink('docs/cli.md', '../../etc/passwd') ?? '', /leaves the repository/);
    assert.equal(brokenLink('README.md', '#which-agents-and-how'), undefined);
    assert.deepEqual([...headingAnchors('# A `b` (c)\n## A b c\n```\n# not a heading\n```\n')], ['a-b-c', 'a-b-c-1']);
  });
});
