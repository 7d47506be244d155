import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings, type SettingsPatch } from '../../shared/settings.ts';
import { tempDatabase } from '../../../test/helpers/temp-db.ts';
import { createLogger, silentLogger } from './logger.ts';
import { createSettingsService, toPublicSettings } from './settings-service.ts';
import { isCairnError } from './errors.ts';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));
function setup() {
  const t = tempDatabase();
  cleanups.push(t.cleanup);
  return { db: t.db, svc: createSettingsService({ db: t.db, logger: silentLogger }) };
}

describe('settings service', () => {
  it('logs which settings changed (their names, never their values)', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', sink: (l) => lines.push(l) });
    const svc = createSettingsService({ db: t.db, logger });
    svc.update({ memoryBudgetTokens: 1234, coreModel: 'my-secret-model' });
    const line = lines.find((l) => l.includes('settings updated'));
    expect(line).toBeDefined();
    expect(line).toContain('memoryBudgetTokens');
    expect(line).toContain('coreModel');
    expect(line).not.toContain('1234');
    expect(line).not.toContain('my-secret-model');
  });

  it('a blank Core Model means no named model (auto again)', () => {
    const { svc } = setup();
    svc.update({ coreModel: 'llama3.2' });
    svc.update({ coreModel: '  ' });
    expect(svc.get()).toMatchObject({ coreModel: null, coreModelMode: 'auto' });
    svc.update({ coreModel: '' });
    expect(svc.get().coreModel).toBeNull();
  });

  it('starts from the defaults and persists a partial update without resetting other keys', () => {
    const { db, svc } = setup();
    expect(svc.get()).toEqual(defaultSettings);
    svc.update({ memoryBudgetTokens: 1500 });
    svc.update({ enabled: false });
    expect(svc.get()).toMatchObject({ memoryBudgetTokens: 1500, enabled: false });
    const reopened = createSettingsService({ db, logger: silentLogger });
    expect(reopened.get()).toMatchObject({ memoryBudgetTokens: 1500, enabled: false });
  });

  it('enforces ranges with a message naming the field', () => {
    const { svc } = setup();
    for (const patch of [
      { memoryBudgetTokens: 50 },
      { summaryDebounceSeconds: 4000 },
      { salienceFloor: 2 },
      { nope: 1 },
    ]) {
      let err: unknown;
      try {
        svc.update(patch as never);
      } catch (e) {
        err = e;
      }
      expect(isCairnError(err) && err.code).toBe('validation_failed');
      expect((err as Error).message).toContain(Object.keys(patch)[0]);
    }
    expect(svc.get()).toEqual(defaultSettings);
  });

  it('keeps a stored provider apiKey when a PUT omits it, and masks it publicly', () => {
    const { svc } = setup();
    svc.update({
      providers: [{ id: 'p', name: 'P', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-secret' }],
      activeProviderId: 'p',
    });
    svc.update({ providers: [{ id: 'p', name: 'Renamed', baseUrl: 'http://127.0.0.1:9/v1' }] });
    expect(svc.get().providers[0]).toMatchObject({ name: 'Renamed', apiKey: 'sk-secret' });
    const pub = toPublicSettings(svc.get());
    expect(pub.providers[0]).toEqual({
      id: 'p',
      name: 'Renamed',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKeySet: true,
    });
    expect(JSON.stringify(pub)).not.toContain('sk-secret');
    svc.update({
      providers: [{ id: 'p', name: 'P', baseUrl: 'http://127.0.0.1:9/v1', apiKey: '' }],
    });
    expect(svc.get().providers[0]!.apiKey).toBeUndefined();
    expect(() => svc.update({ activeProviderId: 'missing' })).toThrow(/activeProviderId/);
  });

  it('notifies listeners with next and previous settings', () => {
    const { svc } = setup();
    const seen: [boolean, boolean][] = [];
    const off = svc.onChange((next, prev) => seen.push([next.enabled, prev.enabled]));
    svc.update({ enabled: false });
    off();
    svc.update({ enabled: true });
    expect(seen).toEqual([[false, true]]);
  });
});

describe('Core Model mode', () => {
  const refused = (fn: () => unknown): string => {
    try {
      fn();
    } catch (err) {
      expect(isCairnError(err) && err.code).toBe('validation_failed');
      return (err as Error).message;
    }
    throw new Error('accepted');
  };

  it('is auto by default; naming a model chooses it, clearing the name goes back to auto', () => {
    const { svc } = setup();
    expect(svc.get()).toMatchObject({ coreModelMode: 'auto', coreModel: null });
    svc.update({ coreModel: 'llama3.2' });
    expect(svc.get()).toMatchObject({ coreModelMode: 'explicit', coreModel: 'llama3.2' });
    svc.update({ coreModel: null });
    expect(svc.get()).toMatchObject({ coreModelMode: 'auto', coreModel: null });
  });

  it('off and auto carry no model name', () => {
    const { svc } = setup();
    svc.update({ coreModel: 'llama3.2' });
    svc.update({ coreModelMode: 'off' });
    expect(svc.get()).toMatchObject({ coreModelMode: 'off', coreModel: null });
    // clearing a name that is not set leaves off alone
    svc.update({ coreModel: null });
    expect(svc.get().coreModelMode).toBe('off');
    svc.update({ coreModelMode: 'explicit', coreModel: 'qwen2.5' });
    expect(svc.get()).toMatchObject({ coreModelMode: 'explicit', coreModel: 'qwen2.5' });
    svc.update({ coreModelMode: 'auto' });
    expect(svc.get()).toMatchObject({ coreModelMode: 'auto', coreModel: null });
  });

  it('refuses contradictions and unknown modes, changing nothing', () => {
    const { svc } = setup();
    svc.update({ coreModel: 'llama3.2' });
    const before = svc.get();
    expect(refused(() => svc.update({ coreModelMode: 'off', coreModel: 'qwen2.5' }))).toMatch(
      /coreModel: a model is named only with coreModelMode "explicit"/,
    );
    expect(refused(() => svc.update({ coreModelMode: 'explicit', coreModel: null }))).toMatch(
      /needs the name of a model/,
    );
    expect(
      refused(() => svc.update({ coreModelMode: 'sometimes' } as unknown as SettingsPatch)),
    ).toMatch(/coreModelMode/);
    expect(svc.get()).toBe(before);
    svc.update({ coreModelMode: 'off' });
    expect(refused(() => svc.update({ coreModelMode: 'explicit' }))).toMatch(/needs the name/);
    expect(svc.get().coreModelMode).toBe('off');
  });

  it('a model stored before the mode existed stays the explicit choice', () => {
    const t = tempDatabase();
    cleanups.push(t.cleanup);
    t.db.prepare(`INSERT INTO settings (key, value) VALUES ('coreModel', '"llama3.2"')`).run();
    const svc = createSettingsService({ db: t.db, logger: silentLogger });
    expect(svc.get()).toMatchObject({ coreModelMode: 'explicit', coreModel: 'llama3.2' });
  });
});
