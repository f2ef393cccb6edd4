import { typescriptThroughCodeCache } from '../../src/cli/typescriptCodeCache';
import { classifyChange } from '../../src/core/changeClass/classifyChange';

// One hook process: classify one change through the parser's code cache, save it, say how it was loaded.
const [home, vendorDir, path, before, after] = process.argv.slice(2);
const parser = typescriptThroughCodeCache(home, vendorDir);
const verdict = classifyChange({ path, before, after });
parser.save();
process.stdout.write(JSON.stringify({ class: verdict.class, rule: verdict.rule, loaded: parser.loaded }));
