import { describe, expect, it } from 'vitest';
import { ConnectionInfo, IpcArgs, IpcChannel } from './ipc.ts';

describe('IPC argument schemas', () => {
  it('accepts exactly what each channel takes', () => {
    expect(IpcArgs[IpcChannel.GetConnection].safeParse([]).success).toBe(true);
    expect(IpcArgs[IpcChannel.GetConnection].safeParse(['extra']).success).toBe(false);
    expect(
      IpcArgs[IpcChannel.SaveExportFile].safeParse([
        { data: '{}', suggestedName: 'cairn-memory-2026-01-01.json' },
      ]).success,
    ).toBe(true);
    expect(IpcArgs[IpcChannel.SubmitRecoveryKey].safeParse(['ABCD-EFGH']).success).toBe(true);
    expect(IpcArgs[IpcChannel.SubmitRecoveryKey].safeParse([42]).success).toBe(false);
  });

  it('refuses file names that could escape the chosen folder', () => {
    for (const name of ['../evil.json', '/etc/passwd', 'a\\b.json', 'x\0.json']) {
      expect(
        IpcArgs[IpcChannel.SaveExportFile].safeParse([{ data: '', suggestedName: name }]).success,
        name,
      ).toBe(false);
    }
  });

  it('channel names are unique', () => {
    const names = Object.values(IpcChannel);
    expect(new Set(names).size).toBe(names.length);
  });

  it('connection info needs a URL and a token', () => {
    expect(
      ConnectionInfo.safeParse({ apiBaseUrl: 'http://127.0.0.1:1337', token: 't' }).success,
    ).toBe(true);
    expect(ConnectionInfo.safeParse({ apiBaseUrl: 'nope', token: 't' }).success).toBe(false);
    expect(ConnectionInfo.safeParse({ apiBaseUrl: 'http://127.0.0.1:1', token: '' }).success).toBe(
      false,
    );
  });
});
