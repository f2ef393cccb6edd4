import { requireWithCodeCache } from '../../src/cli/codeCache';

// One load per process, as dist/hook.js does it: V8 keeps compiled scripts per process, so only a fresh
// process shows whether the cache on disk was used.
const [bundle, cacheDir] = process.argv.slice(2);
const loaded = requireWithCodeCache<{ answer(): string }>(bundle, cacheDir);
const answer = loaded.exports.answer();
loaded.saveCache();
process.stdout.write(JSON.stringify({ answer, cacheHit: loaded.cacheHit }));
