import { ErrorCode } from '../../shared/errors.ts';
import {
  type PublicSettings,
  type Settings,
  SettingsPatch,
  Settings as SettingsSchema,
} from '../../shared/settings.ts';
import { CairnError } from './errors.ts';
import type { Logger } from './logger.ts';
import { describeIssues } from './server/validate.ts';
import type { SettingsService } from './services.ts';
import type { Db } from './store/db.ts';
import { loadSettings, saveSettings } from './store/settings.ts';

export interface SettingsServiceOptions {
  db: Db;
  logger: Logger;
}

/**
 * Settings are loaded once and kept in memory (the request path reads them on every call,
 * so it must not parse anything); `update` validates, persists inside the encrypted db, then
 * notifies listeners.
 */
export function createSettingsService(options: SettingsServiceOptions): SettingsService {
  const log = options.logger.child('settings');
  const loaded = loadSettings(options.db);
  if (loaded.dropped.length > 0) {
    log.warn('stored settings were invalid or unknown; using defaults for them', {
      settings: loaded.dropped,
    });
  }
  let current: Settings = Object.freeze(consistentCoreModel(loaded.settings)) as Settings;
  const listeners = new Set<(next: Settings, prev: Settings) => void>();

  return {
    get: () => current,
    update(patch) {
      const parsed = SettingsPatch.safeParse(patch);
      if (!parsed.success) {
        throw new CairnError(
          ErrorCode.ValidationFailed,
          `Invalid settings: ${describeIssues(parsed.error.issues)}`,
        );
      }
      const p = parsed.data;
      // zod 4 still fills the defaults of omitted keys in Settings.partial(): keep only the
      // keys the caller actually sent, or a PUT of one key would reset all the others.
      const given = Object.fromEntries(
        Object.entries(p).filter(([k]) => Object.prototype.hasOwnProperty.call(patch, k)),
      ) as SettingsPatch;
      if (given.providers) {
        // A PUT never carries the stored API keys back (GET masks them): an omitted apiKey
        // keeps the stored one, an empty string clears it.
        given.providers = given.providers.map((prov) => {
          if (prov.apiKey !== undefined) {
            return prov.apiKey === '' ? { ...prov, apiKey: undefined } : prov;
          }
          const stored = current.providers.find((s) => s.id === prov.id);
          return stored?.apiKey !== undefined ? { ...prov, apiKey: stored.apiKey } : prov;
        });
        const ids = new Set<string>();
        for (const prov of given.providers) {
          if (ids.has(prov.id)) {
            throw new CairnError(
              ErrorCode.ValidationFailed,
              `Invalid settings: providers: duplicate provider id "${prov.id}"`,
            );
          }
          ids.add(prov.id);
        }
      }
      // A blank Core Model means no named model, as the settings form sends it; stored as ''
      // it would be sent to the provider as a model name.
      if (given.coreModel !== undefined && given.coreModel?.trim() === '') given.coreModel = null;
      coreModelPatch(current, given);
      const merged = SettingsSchema.safeParse({ ...current, ...given });
      if (!merged.success) {
        throw new CairnError(
          ErrorCode.ValidationFailed,
          `Invalid settings: ${describeIssues(merged.error.issues)}`,
        );
      }
      const next = merged.data;
      if (
        next.activeProviderId !== null &&
        !next.providers.some((prov) => prov.id === next.activeProviderId)
      ) {
        throw new CairnError(
          ErrorCode.ValidationFailed,
          `Invalid settings: activeProviderId: no provider with id "${next.activeProviderId}"`,
        );
      }
      saveSettings(options.db, next);
      const prev = current;
      current = Object.freeze(next) as Settings;
      log.info('settings updated', { settings: Object.keys(given) });
      for (const listener of listeners) {
        try {
          listener(current, prev);
        } catch (err) {
          log.error('settings listener failed', { err });
        }
      }
      return current;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The Core Model fields of a patch made whole (mutates `given`): naming a model chooses it
 * (mode explicit, as PUT {coreModel} always meant), clearing the name of an explicit model
 * goes back to auto, and a mode other than explicit carries no name. A name sent together
 * with mode off or auto contradicts itself and is refused, as is explicit without a name.
 */
export function coreModelPatch(current: Settings, given: SettingsPatch): void {
  const mode = given.coreModelMode;
  if (mode === undefined) {
    if (typeof given.coreModel === 'string') given.coreModelMode = 'explicit';
    else if (given.coreModel === null && current.coreModelMode === 'explicit') {
      given.coreModelMode = 'auto';
    }
    return;
  }
  if (mode !== 'explicit') {
    if (typeof given.coreModel === 'string') {
      throw new CairnError(
        ErrorCode.ValidationFailed,
        `Invalid settings: coreModel: a model is named only with coreModelMode "explicit" (not "${mode}")`,
      );
    }
    given.coreModel = null;
    return;
  }
  const name = given.coreModel === undefined ? current.coreModel : given.coreModel;
  if (!name) {
    throw new CairnError(
      ErrorCode.ValidationFailed,
      'Invalid settings: coreModel: coreModelMode "explicit" needs the name of a model',
    );
  }
}

/**
 * Settings stored before coreModelMode existed had only the name (null meant the heuristic
 * stage): a stored name stays the user's explicit choice.
 */
export function consistentCoreModel(s: Settings): Settings {
  if (s.coreModel !== null && s.coreModelMode !== 'explicit') {
    return s.coreModelMode === 'auto'
      ? { ...s, coreModelMode: 'explicit' }
      : { ...s, coreModel: null };
  }
  if (s.coreModel === null && s.coreModelMode === 'explicit')
    return { ...s, coreModelMode: 'auto' };
  return s;
}

/** What GET /settings answers: provider keys replaced by `apiKeySet`. */
export function toPublicSettings(settings: Settings): PublicSettings {
  return {
    ...settings,
    providers: settings.providers.map(({ apiKey, ...rest }) => ({
      ...rest,
      apiKeySet: apiKey !== undefined && apiKey !== '',
    })),
  };
}
