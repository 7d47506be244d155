// CPU time the hypervisor gave to other guests ("steal" in /proc/stat, Linux only). On a
// shared virtual machine it comes and goes: while it is high, every process here waits for
// a CPU at random moments, and a latency percentile measures the host more than Cairn
// (seen on this project's 2-vCPU machines: 30-40% steal for minutes, direct-call p50 doubled).
// The benches print it next to their figures so a run on a busy host can be told apart.
import { readFileSync } from 'node:fs';

interface CpuTimes {
  total: number;
  steal: number;
  /** idle + iowait: time no CPU of the machine had work. */
  idle: number;
}

function readCpuTimes(): CpuTimes | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    if (fields.length < 8 || fields.some((f) => !Number.isFinite(f))) return null;
    // guest and guest_nice are already counted in user and nice
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, steal: fields[7]!, idle: fields[3]! + fields[4]! };
  } catch {
    return null;
  }
}

/** A measurement window: the returned function gives `part`'s share of all CPU time since. */
function shareMeter(part: (t: CpuTimes) => number): () => number | null {
  const start = readCpuTimes();
  return () => {
    const end = readCpuTimes();
    if (!start || !end || end.total <= start.total) return null;
    return (part(end) - part(start)) / (end.total - start.total);
  };
}

/** Starts a measurement window; the returned function gives the steal share since then. */
export const stealMeter = () => shareMeter((t) => t.steal);

/**
 * Starts a measurement window; the returned function gives the share of the machine's CPU
 * time that was idle since then (on 2 CPUs, 0.3 is 0.6 of a CPU nobody used).
 */
export const idleMeter = () => shareMeter((t) => t.idle);

/** ", CPU steal 3.2%" (empty where the system does not report it). */
export function formatSteal(share: number | null): string {
  return share === null ? '' : `, CPU steal ${(share * 100).toFixed(1)}%`;
}
