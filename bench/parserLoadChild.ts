import { typescriptThroughCodeCache } from '../src/cli/typescriptCodeCache';
import { classifyChange } from '../src/core/changeClass/classifyChange';

// One fresh process, as a hook call is: the time of its first TS classification, with the parser loaded by a
// plain require or through the code cache in `home` (the headless hook's way).
const [mode, home, vendor] = process.argv.slice(2);
const parser = mode === 'cache' ? typescriptThroughCodeCache(home, vendor) : undefined;
const start = process.hrtime.bigint();
classifyChange({ path: 'a.ts', before: 'export const a = 1;', after: 'export const a = 2;' });
const ms = Number(process.hrtime.bigint() - start) / 1e6;
parser?.save();
process.stdout.write(String(ms));
