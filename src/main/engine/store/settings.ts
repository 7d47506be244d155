import type { z } from 'zod';
import { Settings, defaultSettings } from '../../../shared/settings.ts';
import type { Db } from './migrate.ts';

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
    const checked = field.safeParse(parsed);
    if (checked.success) merged[key] = checked.data;
    else dropped.push(key);
  }
  const result = Settings.safeParse(merged);
  if (result.success) return { settings: result.data, dropped };
  // Fields validated one by one should always combine; be safe anyway.
  return { settings: defaultSettings, dropped: rows.map((r) => r.key) };
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
