import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../shared/settings.ts';
import { databasePerTest } from '../../../../test/helpers/database-per-test.ts';
import { SET_ASIDE_PROVIDERS, loadSettings, saveSettings } from './settings.ts';
import { getMeta, setMeta, deleteMeta } from './meta.ts';

const freshDb = databasePerTest();

describe('settings and meta repositories', () => {
  it('round-trips settings and drops invalid stored keys to their default', () => {
    const db = freshDb();
    expect(loadSettings(db)).toEqual({ settings: defaultSettings, dropped: [] });
    saveSettings(db, { ...defaultSettings, memoryBudgetTokens: 1200, coreModel: 'm' });
    expect(loadSettings(db).settings).toMatchObject({ memoryBudgetTokens: 1200, coreModel: 'm' });
    db.prepare(`UPDATE settings SET value = '99999' WHERE key = 'memoryBudgetTokens'`).run();
    db.prepare(`INSERT INTO settings (key, value) VALUES ('fromTheFuture', '1')`).run();
    const loaded = loadSettings(db);
    expect(loaded.settings.memoryBudgetTokens).toBe(800);
    expect(loaded.settings.coreModel).toBe('m');
    expect(loaded.dropped.sort()).toEqual(['fromTheFuture', 'memoryBudgetTokens']);
  });

  it('keeps the valid providers when one no longer validates, and sets that one aside', () => {
    const db = freshDb();
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
    const db = freshDb();
    expect(getMeta(db, 'k')).toBeNull();
    setMeta(db, 'k', 'v1');
    setMeta(db, 'k', 'v2');
    expect(getMeta(db, 'k')).toBe('v2');
    expect(deleteMeta(db, 'k')).toBe(true);
    expect(getMeta(db, 'k')).toBeNull();
  });
});
