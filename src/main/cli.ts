// The `cairn` command's entry (bin/cairn.mjs, `npm run serve`, the benches and tests run this
// file). It turns on Node's module compile cache before anything else is loaded
// (https://nodejs.org/api/module.html#module-compile-cache): the server is some 400 TypeScript
// modules, and stripping their types and compiling them again on every start took about half a
// second of a two-second start-up. The cache holds only compiled program code, and Node checks
// every entry against its source. It lives in this checkout (node_modules/.cache), never in
// Node's default, the shared temporary folder: compiled code another user of the machine could
// write there would run in this process, which holds the database key. NODE_COMPILE_CACHE
// chooses another folder, NODE_DISABLE_COMPILE_CACHE=1 turns it off; a folder that cannot be
// written leaves it off. Worker threads get the same. Node versions without it start as before.
import * as nodeModule from 'node:module';
import { join } from 'node:path';

const cache = nodeModule.enableCompileCache?.(
  process.env.NODE_COMPILE_CACHE ||
    join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'node-compile-cache'),
);
// Worker threads read it from the environment when they start.
if (cache?.directory) process.env.NODE_COMPILE_CACHE = cache.directory;
const { main } = await import('./cli-main.ts');

if (import.meta.main) {
  void main(process.argv.slice(2)).then((code) => {
    // Let stdout drain and handles close; exit anyway if something still holds the loop.
    process.exitCode = code;
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
