import { describe, expect, it } from 'vitest';
import { sandboxedWebPreferences } from './sandboxed-web-preferences.ts';

describe('sandboxedWebPreferences', () => {
  it('runs the page sandboxed and isolated, without Node, with the given preload', () => {
    expect(sandboxedWebPreferences('/app/preload/index.cjs')).toEqual({
      preload: '/app/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    });
  });
});
