import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { tempDatabase } from '../../../../test/helpers/temp-db.ts';
import { SET_ASIDE_PROVIDERS, loadSettings, saveSettings } from './settings.ts';
import { getMeta, setMeta, deleteMeta } from './meta.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('settings and meta repositories', () => {
  it('round-trips settings and drops invalid stored keys to their default', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    expect(loadSettings(t.db)).toEqual({ settings: defaultSettings, dropped: [] });
    saveSettings(t.db, { ...defaultSettings, memoryBudgetTokens: 1200, coreModel: 'm' });
    expect(loadSettings(t.db).settings).toMatchObject({ memoryBudgetTokens: 1200, coreModel: 'm' });
    t.db.prepare(`UPDATE settings SET value = '99999' WHERE key = 'memoryBudgetTokens'`).run();
    t.db.prepare(`INSERT INTO settings (key, value) VALUES ('fromTheFuture', '1')`).run();
    const loaded = loadSettings(t.db);
    expect(loaded.settings.memoryBudgetTokens).toBe(800);
    expect(loaded.settings.coreModel).toBe('m');
    expect(loaded.dropped.sort()).toEqual(['fromTheFuture', 'memoryBudgetTokens']);
  });

  it('keeps the valid providers when one no longer validates, and sets that one aside', () => {
    const tmp = tempDatabase();
    cleanups.push(tmp.cleanup);
    const db = tmp.db;
    const good = { id: 'ollama', name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' };
    const keyed = {
      id: 'openai',
      name: 'OpenAI',
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-1',
    };
    const bad = { id: 'old', name: 'Old', baseUrl: 'file:///etc/passwd' };
    db.prepare(`INSERT INTO settings (key, value) VALUES ('providers', ?)`).run(
      JSON.stringify([good, bad, keyed]),
    );
    const loaded = loadSettings(db);
    expect(loaded.settings.providers).toEqual([good, keyed]);
    expect(loaded.dropped).toEqual(['providers.1']);
    expect(JSON.parse(getMeta(db, SET_ASIDE_PROVIDERS)!)).toEqual([bad]);
    // Saving afterwards keeps the valid ones and their keys; loading again sets nothing new aside.
    saveSettings(db, loaded.settings);
    expect(loadSettings(db).settings.providers).toEqual([good, keyed]);
    expect(JSON.parse(getMeta(db, SET_ASIDE_PROVIDERS)!)).toEqual([bad]);
  });

  it('gets, sets and deletes meta values', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    expect(getMeta(t.db, 'k')).toBeNull();
    setMeta(t.db, 'k', 'v1');
    setMeta(t.db, 'k', 'v2');
    expect(getMeta(t.db, 'k')).toBe('v2');
    expect(deleteMeta(t.db, 'k')).toBe(true);
    expect(getMeta(t.db, 'k')).toBeNull();
  });
});
