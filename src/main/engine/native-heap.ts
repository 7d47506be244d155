// Hands the C heap's free pages back to the OS once the process is idle (issue 11: RSS ≤ 300 MB
// when idle). What SQLite, the HTTP buffers and the worker threads free goes back to the C
// allocator, and glibc keeps it: its threshold for giving the top of the heap back rises with
// the largest block ever freed (up to 64 MB), and free pages in the middle of the heap are only
// returned by malloc_trim(). Measured (`npm run bench -- memory-throughput`, every load case):
// idle RSS 350 MB, 265 MB after one malloc_trim(0), most of it the main heap ([heap] 100 MB).
//
// No JavaScript API reaches the allocator, so the call goes through koffi, a maintained FFI
// library shipped as prebuilt N-API binaries (no compiler at install): malloc_trim on Linux
// (glibc; musl has none, and nothing happens), malloc_zone_pressure_relief on macOS, _heapmin on
// Windows. Anything that fails to load or call turns the trim off for the process: it is an
// optimisation, never a reason to fail.
import { createRequire } from 'node:module';
import type Koffi from 'koffi';

type Trim = () => void;

/** undefined: not tried yet; null: not available here. */
let trim: Trim | null | undefined;

function loadTrim(): Trim | null {
  try {
    // Loaded on first use, not at start-up: only an idle process needs it.
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    switch (process.platform) {
      case 'linux': {
        const fn = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
        return () => void fn(0);
      }
      case 'darwin': {
        const fn = koffi
          .load('/usr/lib/libSystem.B.dylib')
          .func('size_t malloc_zone_pressure_relief(void *zone, size_t goal)');
        return () => void fn(null, 0);
      }
      case 'win32': {
        const fn = koffi.load('ucrtbase.dll').func('int _heapmin()');
        return () => void fn();
      }
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/**
 * Gives the allocator's free pages back to the OS (all threads' heaps). Call it from the main
 * thread when nothing is running: it takes a few milliseconds with a large heap. Returns
 * whether a trim ran.
 */
export function trimNativeHeap(): boolean {
  if (trim === undefined) trim = loadTrim();
  if (trim === null) return false;
  try {
    trim();
    return true;
  } catch {
    trim = null;
    return false;
  }
}
