// The layering of DESIGN §2 is enforced by lint (eslint.config.js): a lower layer importing a
// higher one, or the memory layer opening a transaction, fails `npm run lint`.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: new URL('..', import.meta.url).pathname });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer rules', () => {
  it('refuses a store file importing the memory layer', async () => {
    const found = await problems(
      'src/main/engine/store/layer-fixture.ts',
      "import { storeDigest } from '../memory/facts.ts';\nexport const f = storeDigest;\n",
    );
    expect(found.join('\n')).toMatch(
      /no-restricted-imports: .*engine\/store is below engine\/memory/,
    );
  });

  it('refuses the text layer importing the store, and vector importing memory', async () => {
    expect(
      (
        await problems(
          'src/main/engine/text/layer-fixture.ts',
          "import { getPinned } from '../store/pinned.ts';\nexport const f = getPinned;\n",
        )
      ).join('\n'),
    ).toMatch(/engine\/text is below engine\/store/);
    expect(
      (
        await problems(
          'src/main/engine/vector/layer-fixture.ts',
          "import { classifyHeuristic } from '../memory/gate.ts';\nexport const f = classifyHeuristic;\n",
        )
      ).join('\n'),
    ).toMatch(/engine\/vector is below engine\/memory/);
  });

  it('refuses db.transaction in the memory layer and in routes', async () => {
    const code =
      "import type { Db } from '../store/migrate.ts';\nexport const run = (db: Db) => db.transaction(() => 1)();\n";
    expect((await problems('src/main/engine/memory/layer-fixture.ts', code)).join('\n')).toMatch(
      /no-restricted-syntax: Open transactions in store/,
    );
    expect(
      (await problems('src/main/engine/server/routes/layer-fixture.ts', code)).join('\n'),
    ).toMatch(/no-restricted-syntax/);
  });

  it('accepts imports downward', async () => {
    expect(
      await problems(
        'src/main/engine/memory/layer-fixture.ts',
        "import { getPinned } from '../store/pinned.ts';\nimport { words } from '../text/text.ts';\nexport const f = [getPinned, words];\n",
      ),
    ).toEqual([]);
  });
});

describe('renderer rule', () => {
  it('refuses the renderer importing the main process', async () => {
    expect(
      (
        await problems(
          'src/renderer/src/layer-fixture.ts',
          "import { words } from '../../main/engine/text/text.ts';\nexport const f = words;\n",
        )
      ).join('\n'),
    ).toMatch(/imports only src\/shared/);
  });
});
