import { describe, expect, it } from 'vitest';
import { Settings, SettingsPatch, defaultSettings } from './settings.ts';

describe('settings schema', () => {
  it('fills every default for an empty object', () => {
    expect(Settings.parse({})).toEqual(defaultSettings);
    expect(defaultSettings.memoryBudgetTokens).toBe(800);
  });

  it('a patch keeps only the keys it was given', () => {
    expect(SettingsPatch.parse({ memoryBudgetTokens: 1200 })).toEqual({ memoryBudgetTokens: 1200 });
  });

  it('enforces ranges and rejects unknown keys', () => {
    expect(SettingsPatch.safeParse({ memoryBudgetTokens: 50 }).success).toBe(false);
    expect(SettingsPatch.safeParse({ memoryBudgetTokens: 5000 }).success).toBe(false);
    expect(SettingsPatch.safeParse({ summaryDebounceSeconds: 9 }).success).toBe(false);
    expect(SettingsPatch.safeParse({ salienceFloor: 1.5 }).success).toBe(false);
    expect(SettingsPatch.safeParse({ memoryBudget: 900 }).success).toBe(false);
  });
});
