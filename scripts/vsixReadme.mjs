// The README a VSIX carries (its details page in VS Code): README.md without the parts for a clone (marked
// <!-- vsix:omit --> … <!-- /vsix:omit -->), its images and its links to pages the VSIX does not carry (docs/,
// CONTRIBUTING.md) pointed at the repository. VS Code's details page shows README images from https only (its
// sanitizer drops relative and data: sources), so images packed in the VSIX could never show there; offline the
// page shows their alt text. `npm run package` writes it to dist/vsix/ and hands it to vsce with --readme-path.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the VSIX README and its images go; vsce packs the README as extension/readme.md. */
export const VSIX_README_DIR = 'dist/vsix';

/**
 * The VSIX's README text and the repository files its images are, from README.md's text: images become
 * `<raw>/<path>`, other relative links `<blob>/<path>`.
 */
export function vsixReadme(markdown, blobUrl, rawUrl) {
  const kept = markdown.replace(/^<!-- vsix:omit -->\n[\s\S]*?^<!-- \/vsix:omit -->\n/gm, '');
  const images = new Set();
  const fences = kept.split(/^(```[\s\S]*?^```)/m);
  const text = fences
    .map((part, index) => (index % 2 === 1 ? part : part.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)\)/g, (whole, bang, label, target) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return whole;
      if (bang) {
        images.add(target);
        return `![${label}](${rawUrl}/${target})`;
      }
      return `[${label}](${blobUrl}/${target})`;
    })))
    .join('');
  return { text, images: [...images] };
}

function main() {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const repository = manifest.repository.url.replace(/\.git$/, '');
  const raw = repository.replace(/^https:\/\/github\.com\//, 'https://raw.githubusercontent.com/');
  const { text, images } = vsixReadme(readFileSync(join(repoRoot, 'README.md'), 'utf8'), `${repository}/blob/main`, `${raw}/main`);
  const out = join(repoRoot, VSIX_README_DIR);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'README.md'), text);
  console.log(`${VSIX_README_DIR}/README.md: ${text.split('\n').length} lines, ${images.length} images`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
