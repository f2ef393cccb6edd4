// Writes `contributes.languageModelTools` in package.json from the governed tool registry, so the manifest
// never drifts from the schemas every other door uses, and the precompiled input validators next to the
// registry. Run: npm run sync:manifest
// (test/unit/host/manifest.test.ts and test/unit/core/tools/inputValidators.test.ts fail when someone forgets.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOLS } from '../src/core/tools/toolRegistry';
import { lmToolContribution } from '../src/host/tools/lmToolManifest';
import { validatorSource } from './validatorSource';

const manifestPath = join(__dirname, '..', 'package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
manifest.contributes ??= {};
manifest.contributes.languageModelTools = Object.values(TOOLS).map(lmToolContribution);
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`package.json: ${manifest.contributes.languageModelTools.length} language model tools written`);

const validatorsPath = join(__dirname, '..', 'src', 'core', 'tools', 'inputValidators.generated.ts');
writeFileSync(validatorsPath, validatorSource(Object.values(TOOLS)));
console.log(`${validatorsPath}: ${Object.keys(TOOLS).length} input validators written`);
