/**
 * Runs a CommonJS bundle (`nodeBundleOptions({ format: 'cjs' })`) with V8's code cache kept
 * beside it: `node run-with-code-cache.cjs BUNDLE.cjs ARGS...` runs BUNDLE.cjs as `node
 * BUNDLE.cjs ARGS...` would (the same `process.argv`, `require`, `__filename`), but compiles it
 * from `BUNDLE.cjs.v8-cache` when that cache fits the bundle and this node, and writes the cache
 * when it does not.
 *
 * Why: the crash tests start a service process dozens of times a run, and most of a start was
 * V8 compiling the same megabytes of bundle again (Node 20 keeps no compile cache of its own).
 * The cache is written right after the bundle's top-level code ran, so it holds every function
 * the start compiled, and written to a scratch file renamed into place, so processes starting at
 * once never read half of one. A cache V8 rejects (another node, other flags) is only slower:
 * V8 compiles the source, and the cache is written again.
 */
'use strict';
const { isAscii } = require('node:buffer');
const { readFileSync, renameSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, resolve } = require('node:path');
const { Script } = require('node:vm');

const file = resolve(process.argv[2] ?? '');
// the bundle sees the command line it would see if node ran it directly
process.argv.splice(1, 1);
const cacheFile = `${file}.v8-cache`;
let cachedData;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  cachedData = undefined;
}
/**
 * The bundle's source. esbuild writes ASCII (non-ASCII characters escaped, its default charset),
 * and ASCII read as Latin-1 is the same string, copied as it is instead of decoded as UTF-8: the
 * turn service (4 MB) started with 1 300 fewer page faults (11.4 k against 12.7 k, `perf stat`,
 * eight starts each, alternated). Anything else is decoded as UTF-8, as node would.
 */
function sourceOf(path) {
  const bytes = readFileSync(path);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

const script = new Script(Module.wrap(sourceOf(file)), {
  filename: file,
  cachedData,
});
const module_ = new Module(file, null);
module_.filename = file;
script
  .runInThisContext()
  .call(module_.exports, module_.exports, Module.createRequire(file), module_, file, dirname(file));
if (cachedData === undefined || script.cachedDataRejected) {
  const scratch = `${cacheFile}.${process.pid}`;
  try {
    writeFileSync(scratch, script.createCachedData());
    renameSync(scratch, cacheFile);
  } catch {
    // best effort: the next start compiles the source and tries again
  }
}
