import { afterEach, describe, expect, it } from 'vitest';
import { HealthResponse, RecoveryKeyResponse } from '../src/shared/api.ts';
import { parseRecoveryKey } from '../src/main/engine/secrets.ts';
import { startEngine, type EngineHarness } from './helpers/engine-harness.ts';

let h: EngineHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

describe('recovery key and quarantine status', () => {
  it('shows the recovery key that opens this database, to token holders only', async () => {
    h = await startEngine();
    const res = await h.api<unknown>('GET', '/memory/recovery-key');
    expect(res.status).toBe(200);
    const { recovery_key } = RecoveryKeyResponse.parse(res.body);
    expect(parseRecoveryKey(recovery_key).toString('hex')).toBe(h.dbKey);

    const anonymous = await fetch(h.url + '/memory/recovery-key');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain(recovery_key);
    expect(h.logs.join('\n')).not.toContain(recovery_key);
  });

  it('reports in /health whether a database was quarantined', async () => {
    h = await startEngine();
    const res = await fetch(h.url + '/health');
    const health = HealthResponse.parse(await res.json());
    expect(health.quarantined).toBeNull();
    expect(health.encryption.keySource).toBe('env');
  });
});
