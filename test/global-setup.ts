// Builds what the test suite needs once per run (the tiny embedding model fixture, the word
// vectors asset).
export default async function setup(): Promise<void> {
  const { ensureTinyModel } = await import('./fixtures/tiny-model.ts');
  await ensureTinyModel();
  const { ensureWordVectorAsset } = await import('./helpers/word-vectors.ts');
  await ensureWordVectorAsset();
}
