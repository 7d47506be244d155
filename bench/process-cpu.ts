// CPU time a process used (all its threads, user + system), from /proc/<pid>/stat (Linux
// only). Unlike a latency percentile it hardly depends on what else the machine or its host
// is doing, so it is the steadier figure for what Cairn itself costs per request.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc (USER_HZ: 100 on every Linux build in use). */
const USER_HZ = 100;

/** CPU milliseconds used so far by `pid`, or null where /proc is not available. */
export function processCpuMs(pid: number | undefined): number | null {
  return pid === undefined ? null : cpuMsFromStat(`/proc/${pid}/stat`);
}

/**
 * CPU milliseconds used so far by one thread of `pid` (the main thread's id is the pid
 * itself), or null where /proc is not available.
 */
export function threadCpuMs(pid: number | undefined, tid: number | undefined): number | null {
  if (pid === undefined || tid === undefined) return null;
  return cpuMsFromStat(`/proc/${pid}/task/${tid}/stat`);
}

function cpuMsFromStat(path: string): number | null {
  try {
    const stat = readFileSync(path, 'utf8');
    // The command name (field 2) may contain spaces: count fields after its closing ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
    return ((utime + stime) * 1000) / USER_HZ;
  } catch {
    return null;
  }
}

/**
 * CPU milliseconds used so far by each thread of `pid` (tid → name and ms), for where a
 * process's time went; empty where /proc is not available.
 */
export function threadsCpuMs(pid: number | undefined): Map<number, { name: string; ms: number }> {
  const out = new Map<number, { name: string; ms: number }>();
  if (pid === undefined) return out;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    const ms = cpuMsFromStat(`/proc/${pid}/task/${tid}/stat`);
    let name = '?';
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      // The thread ended between the listing and the read.
    }
    if (ms !== null) out.set(Number(tid), { name, ms });
  }
  return out;
}

/**
 * The CPU each thread name used between two threadsCpuMs snapshots, largest first. A thread
 * that ended between them is missing (a retired worker), so the sum can fall short of the
 * process's own figure.
 */
export function threadCpuDelta(
  before: ReadonlyMap<number, { name: string; ms: number }>,
  after: ReadonlyMap<number, { name: string; ms: number }>,
  pid: number | undefined,
): [string, number][] {
  const byName = new Map<string, number>();
  for (const [tid, { name, ms }] of after) {
    const label = tid === pid ? 'main' : name;
    byName.set(label, (byName.get(label) ?? 0) + ms - (before.get(tid)?.ms ?? 0));
  }
  return [...byName].filter(([, ms]) => ms > 0).sort((a, b) => b[1] - a[1]);
}
