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

describe('provider base URL', () => {
  const patch = (baseUrl: string) =>
    SettingsPatch.safeParse({ providers: [{ id: 'p', name: 'P', baseUrl }] });

  it('accepts http and https URLs with a host, loopback and IPv6 included', () => {
    for (const url of [
      'http://127.0.0.1:11434/v1',
      'https://api.example.com/v1',
      'http://[::1]:1/v1',
    ]) {
      expect(patch(url).success).toBe(true);
    }
  });

  it('refuses other schemes and URLs without a host, naming the field', () => {
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:,x',
      'ftp://h/',
      'http://',
    ]) {
      const result = patch(url);
      expect(result.success).toBe(false);
      const issue = result.error!.issues[0]!;
      expect(issue.path).toEqual(['providers', 0, 'baseUrl']);
      expect(issue.message).toMatch(/^baseUrl must/);
    }
  });
});
