import type { z } from 'zod';
import { ProviderSettings, Settings, defaultSettings } from '../../../shared/settings.ts';
import { getMeta, setMeta } from './meta.ts';
import type { Db } from './db.ts';

// Settings are stored one row per key (value = JSON) so a key added by a newer version, or
// one that no longer validates, never takes the others down with it.

export interface LoadedSettings {
  settings: Settings;
  /** Stored keys that were unknown or invalid and fell back to their default. */
  dropped: string[];
}

export function loadSettings(db: Db): LoadedSettings {
  const rows = db.prepare('SELECT key, value FROM settings').all() as {
    key: string;
    value: string;
  }[];
  const merged: Record<string, unknown> = { ...defaultSettings };
  const dropped: string[] = [];
  const shape = Settings.shape as unknown as Record<string, z.ZodType | undefined>;
  for (const { key, value } of rows) {
    const field = shape[key];
    if (!field) {
      dropped.push(key);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      dropped.push(key);
      continue;
    }
    if (key === 'providers' && Array.isArray(parsed)) {
      merged[key] = validProviders(db, parsed, dropped);
      continue;
    }
    const checked = field.safeParse(parsed);
    if (checked.success) merged[key] = checked.data;
    else dropped.push(key);
  }
  const result = Settings.safeParse(merged);
  if (result.success) return { settings: result.data, dropped };
  // Fields validated one by one should always combine; be safe anyway.
  return { settings: defaultSettings, dropped: rows.map((r) => r.key) };
}

/** Meta key under which providers that no longer validate are kept, as they were stored. */
export const SET_ASIDE_PROVIDERS = 'settings.providers_set_aside';

/**
 * The stored providers that still validate. One that does not (a URL a newer version
 * refuses) must not take the others and their API keys down with it, and is not lost
 * either: it is set aside, as stored, in the meta table, where a later version or the user
 * can recover it.
 */
function validProviders(db: Db, stored: unknown[], dropped: string[]): ProviderSettings[] {
  const valid: ProviderSettings[] = [];
  const invalid: unknown[] = [];
  stored.forEach((p, i) => {
    const checked = ProviderSettings.safeParse(p);
    if (checked.success) valid.push(checked.data);
    else {
      invalid.push(p);
      dropped.push(`providers.${i}`);
    }
  });
  if (invalid.length > 0) {
    const before = JSON.parse(getMeta(db, SET_ASIDE_PROVIDERS) ?? '[]') as unknown[];
    const known = new Set(before.map((x) => JSON.stringify(x)));
    const added = invalid.filter((x) => !known.has(JSON.stringify(x)));
    if (added.length > 0) setMeta(db, SET_ASIDE_PROVIDERS, JSON.stringify([...before, ...added]));
  }
  return valid;
}

/** Writes every key in one transaction (only keys whose value changed are rewritten). */
export function saveSettings(db: Db, settings: Settings): void {
  const upsert = db.prepare(
    'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <> excluded.value',
  );
  db.transaction(() => {
    for (const [key, value] of Object.entries(settings)) {
      upsert.run(key, JSON.stringify(value ?? null));
    }
  })();
}
