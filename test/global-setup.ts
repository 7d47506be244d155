// Builds what the test suite needs once per run (e.g. the tiny embedding model fixture).
export default async function setup(): Promise<void> {
  const { ensureTinyModel } = await import('./fixtures/tiny-model.ts');
  await ensureTinyModel();
}
