// Waits for a condition by polling: for what a test can only observe from outside (a file
// appearing in the data folder, a background check finishing). It orders events and never
// measures time: the timeout only turns a hang into a clear failure.

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
