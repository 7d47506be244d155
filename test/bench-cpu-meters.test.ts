// The CPU meters the benches print beside their figures (bench/cpu-steal.ts,
// bench/process-cpu.ts): what share of the machine stayed idle, and how long one thread ran.
import { describe, expect, it } from 'vitest';
import { idleMeter } from '../bench/cpu-steal.ts';
import { threadCpuMs } from '../bench/process-cpu.ts';

const busyFor = (ms: number) => {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  return x;
};

describe.runIf(process.platform === 'linux')('bench CPU meters', () => {
  it('count the time this thread spends on a CPU, and the machine time left idle', () => {
    const idle = idleMeter();
    const before = threadCpuMs(process.pid, process.pid);
    busyFor(300);
    const after = threadCpuMs(process.pid, process.pid);
    const share = idle();
    expect(before).not.toBeNull();
    // Clock ticks are 10 ms; a busy thread is on a CPU most of the time it runs.
    expect(after! - before!).toBeGreaterThanOrEqual(150);
    expect(share).not.toBeNull();
    expect(share!).toBeGreaterThanOrEqual(0);
    // This thread kept one CPU busy for the whole window: the machine was not all idle.
    expect(share!).toBeLessThan(1);
  });
});
