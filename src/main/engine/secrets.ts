// The database key (DESIGN §4): where it comes from, where it is kept, and the recovery key
// that opens the database when the keychain entry is lost.
//
// Resolution order (first match wins):
//   1. an explicit key: `dbKeyHex` or CAIRN_DB_KEY (64 hex chars)          → 'env'
//   2. CAIRN_RECOVERY_KEY (checked against the database, then re-stored)     → 'recovery'
//   3. the OS keychain entry for this data folder                           → 'keychain'
//   4. the key file <dataDir>/db.key (mode 0600)                            → 'keyfile'
//   5. no database yet: a new random key, kept in the keychain when one works, else in the
//      key file; its recovery key is returned once so the UI can show it.
// A new key is never generated while a database exists in dataDir: that would make the
// existing memory unreadable. The user is told to provide the recovery key instead.
import { randomBytes, createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  constants as fsConstants,
  existsSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import type { KeySource } from '../../shared/api.ts';
import { ErrorCode } from '../../shared/errors.ts';
import { CairnError } from './errors.ts';
import type { Logger } from './logger.ts';
import {
  DATABASE_FILE_NAME,
  databaseFileExists,
  keyOpensDatabase,
  rekeyDatabase,
} from './store/database-file.ts';
import type { Db } from './store/db.ts';

export const KEYCHAIN_SERVICE = 'Cairn';
export const KEY_FILE_NAME = 'db.key';
/** Where a new key waits while `cairn rekey` re-encrypts the database (see rotateDatabaseKey). */
export const PENDING_SUFFIX = '.next';
/** A random id kept in the data folder; names the keychain entry of this folder's key. */
export const KEYCHAIN_ID_FILE_NAME = 'keychain-id';
/**
 * A missing Secret Service (no session bus, no display for an unlock prompt) fails within
 * milliseconds; this only bounds a keychain that never answers. It is long enough for a
 * person to type the keyring password into an unlock prompt on a desktop.
 */
const DEFAULT_KEYCHAIN_TIMEOUT_MS = 10_000;

/**
 * Access to a credential store. The OS keychain is the real one (createOsKeychain); tests
 * inject an in-memory one. Each method may throw (store unavailable, locked, denied) or
 * return a promise.
 */
export interface KeychainAccessor {
  get(account: string): string | null | Promise<string | null>;
  set(account: string, value: string): void | Promise<void>;
  delete(account: string): void | Promise<void>;
}

export interface ResolveKeyOptions {
  dataDir: string;
  env: Record<string, string | undefined>;
  /** An explicit key (64 hex chars), e.g. from a CLI flag; wins over everything. */
  dbKeyHex?: string;
  /** false: never touch the OS keychain (key file only, unless a key is given). */
  useKeychain: boolean;
  logger: Logger;
  /** Injected credential store; defaults to the OS keychain. */
  keychain?: KeychainAccessor;
  /** How long one keychain call may take before the keychain counts as unavailable. */
  keychainTimeoutMs?: number;
}

export interface ResolvedKey {
  key: Buffer;
  source: KeySource;
  /** Only when the key was generated just now: show it to the user once. */
  recoveryKey: string | null;
}

// ---------------------------------------------------------------------------------------
// Recovery key: Crockford base32 of key (32 bytes) + the first 3 bytes of its SHA-256
// (a checksum that catches typos), 56 characters in 14 groups of 4: ABCD-EFGH-...
// Crockford's alphabet has no I, L, O, U; when reading, O is taken as 0 and I/L as 1.
// https://www.crockford.com/base32.html

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RECOVERY_CHECKSUM_BYTES = 3;
const RECOVERY_CHARS = 56; // (32 + 3) bytes * 8 / 5

function checksum(key: Buffer): Buffer {
  return createHash('sha256').update(key).digest().subarray(0, RECOVERY_CHECKSUM_BYTES);
}

function base32Encode(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += CROCKFORD[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += CROCKFORD[(value << (5 - bits)) & 31];
  return out;
}

function base32Decode(text: string): Buffer {
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of text) {
    const v = CROCKFORD.indexOf(ch);
    if (v < 0) throw new Error(`invalid character ${ch}`);
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
    value &= (1 << bits) - 1;
  }
  return Buffer.from(out);
}

/** The human-friendly form of a 32-byte key: 14 groups of 4 characters with a checksum. */
export function formatRecoveryKey(key: Buffer): string {
  if (key.length !== 32) throw new Error('a database key is 32 bytes');
  const chars = base32Encode(Buffer.concat([key, checksum(key)]));
  return chars.match(/.{4}/g)!.join('-');
}

/**
 * Reads a recovery key as typed by a person: case, spaces and dashes do not matter, and the
 * look-alikes O/I/L are read as 0/1. A typo is caught by the checksum.
 */
export function parseRecoveryKey(text: string): Buffer {
  const cleaned = text
    .toUpperCase()
    .replace(/[\s\-_]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  const bad = cleaned.match(/[^0-9A-HJKMNP-TV-Z]/);
  if (bad) {
    throw new CairnError(
      ErrorCode.InvalidKey,
      `The recovery key contains "${bad[0]}", which is not a recovery-key character. Check what you typed.`,
    );
  }
  if (cleaned.length !== RECOVERY_CHARS) {
    throw new CairnError(
      ErrorCode.InvalidKey,
      `A recovery key has ${RECOVERY_CHARS} characters (14 groups of 4); this one has ${cleaned.length}. Check for missing or extra characters.`,
    );
  }
  const bytes = base32Decode(cleaned);
  const key = bytes.subarray(0, 32);
  const sum = bytes.subarray(32, 32 + RECOVERY_CHECKSUM_BYTES);
  if (!checksum(key).equals(sum)) {
    throw new CairnError(
      ErrorCode.InvalidKey,
      'The recovery key has a typo: its checksum does not match. Check each group of 4 characters.',
    );
  }
  return Buffer.from(key);
}

// ---------------------------------------------------------------------------------------
// Explicit key (CAIRN_DB_KEY)

export function parseHexKey(hex: string, what = 'CAIRN_DB_KEY'): Buffer {
  const trimmed = hex.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(trimmed)) {
    throw new CairnError(
      ErrorCode.InvalidKey,
      `${what} must be exactly 64 hexadecimal characters (a 32-byte key); got ${trimmed.length} characters${/[^0-9a-fA-F]/.test(trimmed) ? ' including non-hex ones' : ''}.`,
    );
  }
  return Buffer.from(trimmed, 'hex');
}

// ---------------------------------------------------------------------------------------
// OS keychain

/** Rejects with a CairnError when `work` takes longer than `ms` (a keychain prompt nobody can answer). */
async function withTimeout<T>(work: () => T | Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(work),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`the keychain did not answer ${what} within ${ms} ms`)),
          ms,
        );
        timer.unref();
      }),
    ]);
  } finally {
    if (timer) clearTimeout(timer);
  }
}

export interface OsKeychainOptions {
  service?: string;
  timeoutMs?: number;
}

/**
 * The OS credential store via @napi-rs/keyring (macOS Keychain, Windows Credential Manager,
 * Secret Service on Linux). Calls run off the main thread and are abandoned after
 * `timeoutMs` (a locked Secret Service may wait forever for an unlock prompt).
 *
 * On Linux the entry is pinned to the Secret Service: keyring's default falls back to the
 * kernel keyring (keyutils), which forgets everything at reboot — a key kept there would be
 * lost, so a machine without Secret Service uses the key file instead.
 */
export function createOsKeychain(options: OsKeychainOptions = {}): KeychainAccessor {
  const service = options.service ?? KEYCHAIN_SERVICE;
  const timeoutMs = options.timeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  const entry = async (account: string) => {
    const { AsyncEntry } = await import('@napi-rs/keyring');
    return new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  };
  const call = async <T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    try {
      return await withTimeout(() => fn(controller.signal), timeoutMs, what);
    } finally {
      controller.abort();
    }
  };
  return {
    get: (account) => call('a read', async (signal) => (await entry(account)).getPassword(signal)),
    set: (account, value) =>
      call('a write', async (signal) => (await entry(account)).setPassword(value, signal)),
    delete: (account) =>
      call('a delete', async (signal) => {
        await (await entry(account)).deleteCredential(signal);
      }),
  };
}

// ---------------------------------------------------------------------------------------
// Files in the data folder

function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/** link(from, to) without replacing `to`; always removes `from`. */
function tryLink(from: string, to: string): 'linked' | 'exists' | 'unsupported' {
  try {
    linkSync(from, to);
    return 'linked';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return 'exists';
    // FAT/exFAT and some network file systems have no hard links.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EXDEV') {
      return 'unsupported';
    }
    throw err;
  } finally {
    unlinkSync(from);
  }
}

/**
 * Writes `content` to `path` only if `path` does not exist, atomically: a temp file (O_EXCL,
 * mode 0600, fsynced) is hard-linked into place (link never replaces an existing file), so a
 * crash never leaves a half-written key file. Returns false if `path` already existed.
 */
function createFileExclusive(path: string, content: string): boolean {
  const tmp = `${path}.tmp-${randomUUID()}`;
  writeNewFile(tmp, content);
  const linked = tryLink(tmp, path);
  if (linked !== 'unsupported') return linked === 'linked';
  // Still exclusive (O_EXCL), though a crash mid-write could leave a short file, which
  // readKeyFile refuses with a clear error rather than using.
  try {
    writeNewFile(path, content);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  return true;
}

/** Replaces `path` atomically (temp file + rename); used when a recovery key is re-stored. */
function replaceFile(path: string, content: string): void {
  const tmp = `${path}.tmp-${randomUUID()}`;
  writeNewFile(tmp, content);
  renameSync(tmp, path);
}

/** Writes a file that must not exist yet (O_EXCL, else EEXIST), mode 0600, fsynced. */
function writeNewFile(path: string, content: string): void {
  const fd = openSync(path, fsConstants.O_CREAT | fsConstants.O_EXCL | fsConstants.O_WRONLY, 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Mode bits mean nothing on Windows (the data folder's ACL protects it there); elsewhere a
 * key file readable by the group or others is refused, as ssh does with private keys.
 */
const checksPermissions = process.platform !== 'win32';

export function readKeyFile(path: string): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, fsConstants.O_RDONLY | (fsConstants.O_NOFOLLOW ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP') {
      throw new CairnError(
        ErrorCode.InvalidKey,
        `The key file ${path} is a symbolic link; Cairn only reads a regular file it owns.`,
      );
    }
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      throw new CairnError(ErrorCode.InvalidKey, `The key file ${path} is not a regular file.`);
    }
    if (checksPermissions) {
      if ((st.mode & 0o077) !== 0) {
        throw new CairnError(
          ErrorCode.InvalidKey,
          `The key file ${path} is readable by other users (mode ${(st.mode & 0o777).toString(8)}). Run: chmod 600 '${path}' — and consider the key exposed (rotate it with \`cairn rekey\`).`,
        );
      }
      const uid = process.getuid?.();
      if (uid !== undefined && st.uid !== uid) {
        throw new CairnError(
          ErrorCode.InvalidKey,
          `The key file ${path} belongs to another user (uid ${st.uid}); Cairn only uses a key file owned by the user running it.`,
        );
      }
    }
    const text = readFileSync(fd, 'utf8');
    return parseHexKey(text, `The key file ${path}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The id naming this data folder's keychain entry (`database-key:<id>`). It lives in the
 * folder, so a moved or copied folder keeps finding its key.
 */
export function dataDirKeychainId(dataDir: string): string {
  ensureDataDir(dataDir);
  const path = join(dataDir, KEYCHAIN_ID_FILE_NAME);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const id = readFileSync(path, 'utf8').trim();
      if (/^[0-9a-f-]{36}$/.test(id)) return id;
      throw new CairnError(
        ErrorCode.InvalidKey,
        `${path} is damaged (it should hold a single id). Restore it, or start with CAIRN_RECOVERY_KEY.`,
      );
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    // Absent: create it (exclusively, so two starting processes agree on one id).
    if (createFileExclusive(path, randomUUID() + '\n')) continue;
  }
  return readFileSync(path, 'utf8').trim();
}

export function keychainAccount(dataDir: string): string {
  return `database-key:${dataDirKeychainId(dataDir)}`;
}

// ---------------------------------------------------------------------------------------
// Resolution

interface Store {
  /** True when the keychain-id file had to be created now (so no entry can exist yet). */
  idCreated: boolean;
  /** The keychain when it answers; null when it is off or unavailable. */
  keychain: KeychainAccessor | null;
  keychainError: string | null;
  account: string;
  keyFile: string;
  timeoutMs: number;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Stores `key` in the keychain (verified by reading it back) or, failing that, the key file. */
async function storeKey(
  store: Store,
  key: Buffer,
  logger: Logger,
  mode: 'new' | 'replace',
): Promise<'keychain' | 'keyfile'> {
  const hex = key.toString('hex');
  if (store.keychain) {
    try {
      await withTimeout(() => store.keychain!.set(store.account, hex), store.timeoutMs, 'a write');
      const back = await withTimeout(
        () => store.keychain!.get(store.account),
        store.timeoutMs,
        'a read',
      );
      if (back === hex) return 'keychain';
      logger.warn('keychain did not keep the key; using the key file instead');
    } catch (err) {
      logger.warn('keychain write failed; using the key file instead', { error: describe(err) });
    }
  }
  if (mode === 'new') {
    if (!createFileExclusive(store.keyFile, hex + '\n')) {
      // Another process created a key file between our check and now: use that one.
      const existing = readKeyFile(store.keyFile);
      if (existing && !existing.equals(key)) {
        throw new CairnError(
          ErrorCode.Conflict,
          `Another process created ${store.keyFile} while Cairn was starting. Start Cairn again.`,
          { status: 409 },
        );
      }
    }
  } else {
    replaceFile(store.keyFile, hex + '\n');
  }
  return 'keyfile';
}

async function openStore(options: ResolveKeyOptions): Promise<Store> {
  const timeoutMs = options.keychainTimeoutMs ?? DEFAULT_KEYCHAIN_TIMEOUT_MS;
  const idExisted = existsSync(join(options.dataDir, KEYCHAIN_ID_FILE_NAME));
  const store: Store = {
    idCreated: false,
    keychain: null,
    keychainError: options.useKeychain ? null : 'disabled',
    account: keychainAccount(options.dataDir),
    keyFile: join(options.dataDir, KEY_FILE_NAME),
    timeoutMs,
  };
  store.idCreated = !idExisted;
  if (options.useKeychain) {
    store.keychain = options.keychain ?? createOsKeychain({ timeoutMs });
  }
  return store;
}

function missingKeyError(dataDir: string, store: Store): CairnError {
  const where =
    store.keychainError === 'disabled'
      ? `no key file (${store.keyFile}) exists and the OS keychain is not used`
      : store.keychainError
        ? `the OS keychain is unavailable (${store.keychainError}) and no key file (${store.keyFile}) exists`
        : store.idCreated
          ? `its ${KEYCHAIN_ID_FILE_NAME} file (which names its OS keychain entry) was missing and no key file (${store.keyFile}) exists`
          : `neither the OS keychain nor a key file (${store.keyFile}) holds its key`;
  return new CairnError(
    ErrorCode.KeyNotFound,
    `A Cairn database exists in ${dataDir}, but ${where}. Cairn will not create a new key over existing memory. ` +
      'Start Cairn with CAIRN_RECOVERY_KEY set to your recovery key (shown when the database was created), ' +
      'or with CAIRN_DB_KEY set to the 64-hex-character key; unlocking the keychain also works if the key was kept there.',
    { status: 500 },
  );
}

/** Keeps a key that is about to be replaced under `<name>.replaced-<timestamp>`. */
async function keepReplacedKey(
  store: Store,
  old: { key: Buffer; source: 'keychain' | 'keyfile' },
  logger: Logger,
): Promise<void> {
  const suffix = `.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  const hex = old.key.toString('hex');
  if (old.source === 'keychain' && store.keychain) {
    try {
      await withTimeout(
        () => store.keychain!.set(store.account + suffix, hex),
        store.timeoutMs,
        'a write',
      );
      logger.warn('the previous key was kept in the keychain', { entry: store.account + suffix });
      return;
    } catch {
      // Fall through to a file: losing the old key is worse than keeping it in a 0600 file.
    }
  }
  createFileExclusive(store.keyFile + suffix, hex + '\n');
  logger.warn('the previous key was kept in a key file', { file: store.keyFile + suffix });
}

/** Looks the key up without generating one. */
async function findStoredKey(
  store: Store,
  logger: Logger,
): Promise<{ key: Buffer; source: 'keychain' | 'keyfile' } | null> {
  if (store.keychain) {
    try {
      const hex = await withTimeout(
        () => store.keychain!.get(store.account),
        store.timeoutMs,
        'a read',
      );
      if (hex) return { key: parseHexKey(hex, 'The key in the OS keychain'), source: 'keychain' };
    } catch (err) {
      if (err instanceof CairnError) throw err;
      store.keychainError = describe(err);
      store.keychain = null;
      logger.info('OS keychain unavailable; using the key file', { error: store.keychainError });
    }
  }
  const fromFile = readKeyFile(store.keyFile);
  return fromFile ? { key: fromFile, source: 'keyfile' } : null;
}

/**
 * Finds (or, for a new data folder, creates) the database key. See the order at the top of
 * this file. Throws CairnError `invalid_key` for a malformed key, `key_not_found` when a
 * database exists but its key is nowhere, `wrong_key` when a recovery key does not open it.
 */
export async function resolveDatabaseKey(options: ResolveKeyOptions): Promise<ResolvedKey> {
  const { dataDir, env, logger } = options;
  ensureDataDir(dataDir);

  const explicit = options.dbKeyHex ?? (env.CAIRN_DB_KEY?.trim() || undefined);
  if (explicit !== undefined) {
    const key = parseHexKey(explicit, options.dbKeyHex !== undefined ? 'The key' : 'CAIRN_DB_KEY');
    logger.info('database key from the environment', { keySource: 'env' });
    return { key, source: 'env', recoveryKey: null };
  }

  const store = await openStore(options);
  const recoveryText = env.CAIRN_RECOVERY_KEY?.trim();
  if (recoveryText) {
    const key = parseRecoveryKey(recoveryText);
    const dbPath = join(dataDir, DATABASE_FILE_NAME);
    const opens = keyOpensDatabase(dbPath, key);
    if (opens === false) {
      throw new CairnError(
        ErrorCode.WrongKey,
        `CAIRN_RECOVERY_KEY does not open the database in ${dataDir}: it belongs to another database. The database was left untouched.`,
        { status: 500 },
      );
    }
    const existing = await findStoredKey(store, logger).catch(() => null);
    if (!existing || !existing.key.equals(key)) {
      // The recovery key opens this database (or there is none yet), so whatever is stored
      // for this folder is stale: replace it so the next start needs no recovery key. Unless
      // the database proved it stale, the old key is kept aside (it may open a quarantined
      // or backed-up file).
      if (existing && opens !== true) await keepReplacedKey(store, existing, logger);
      const kept = await storeKey(store, key, logger, 'replace');
      logger.info('recovery key accepted; key stored again', { keySource: 'recovery', kept });
    }
    return { key, source: 'recovery', recoveryKey: null };
  }

  const stored = await findStoredKey(store, logger);
  const found = stored ? await settlePendingRotation(store, dataDir, stored, logger) : null;
  const hasDatabase = databaseFileExists(dataDir);
  if (found) {
    logger.info('database key found', { keySource: found.source });
    // Setup is not finished until the database exists (a first start that stopped before
    // creating it may never have shown the recovery key): show it until then.
    return {
      key: found.key,
      source: found.source,
      recoveryKey: hasDatabase ? null : formatRecoveryKey(found.key),
    };
  }

  if (hasDatabase) throw missingKeyError(dataDir, store);

  const key = randomBytes(32);
  const source = await storeKey(store, key, logger, 'new');
  logger.info('new database key generated', { keySource: source });
  return { key, source, recoveryKey: formatRecoveryKey(key) };
}

// ---------------------------------------------------------------------------------------
// Key rotation (`cairn rekey`)
//
// Order matters: the new key is stored as "pending" (keychain entry `<account>.next` or
// db.key.next) BEFORE the database is re-encrypted, and becomes the current key after. A crash
// anywhere leaves a key that opens the database in a place the next start looks
// (settlePendingRotation).

type StoredSource = 'keychain' | 'keyfile';

async function readPending(store: Store): Promise<Buffer | null> {
  if (store.keychain) {
    try {
      const hex = await withTimeout(
        () => store.keychain!.get(store.account + PENDING_SUFFIX),
        store.timeoutMs,
        'a read',
      );
      if (hex) return parseHexKey(hex, 'The pending key in the OS keychain');
    } catch {
      // Unavailable or damaged: the key file is still checked.
    }
  }
  try {
    return readKeyFile(store.keyFile + PENDING_SUFFIX);
  } catch {
    return null;
  }
}

async function writeStored(
  store: Store,
  where: StoredSource,
  name: 'current' | 'pending',
  key: Buffer,
): Promise<void> {
  const hex = key.toString('hex');
  const suffix = name === 'pending' ? PENDING_SUFFIX : '';
  if (where === 'keychain') {
    if (!store.keychain) throw new Error('the OS keychain is unavailable');
    await withTimeout(
      () => store.keychain!.set(store.account + suffix, hex),
      store.timeoutMs,
      'a write',
    );
    const back = await withTimeout(
      () => store.keychain!.get(store.account + suffix),
      store.timeoutMs,
      'a read',
    );
    if (back !== hex) throw new Error('the OS keychain did not keep the key');
  } else {
    replaceFile(store.keyFile + suffix, hex + '\n');
  }
}

async function clearPending(store: Store): Promise<void> {
  if (store.keychain) {
    try {
      await withTimeout(
        () => store.keychain!.delete(store.account + PENDING_SUFFIX),
        store.timeoutMs,
        'a delete',
      );
    } catch {
      // Nothing pending there, or the keychain is gone: a stale entry is settled next start.
    }
  }
  rmSync(store.keyFile + PENDING_SUFFIX, { force: true });
}

/**
 * Makes the pending key (which opens the database) the current one. A failure is only
 * logged: the key is safe as the pending key, and the next start promotes it.
 */
async function promotePendingKey(
  store: Store,
  source: StoredSource,
  key: Buffer,
  logger: Logger,
  failure: string,
): Promise<void> {
  try {
    await writeStored(store, source, 'current', key);
    await clearPending(store);
  } catch (err) {
    logger.warn(failure, { error: describe(err) });
  }
}

/**
 * A rotation that stopped half-way left a pending key. Whichever of the two opens the
 * database becomes (or stays) the current key; the other is dropped.
 */
async function settlePendingRotation(
  store: Store,
  dataDir: string,
  found: { key: Buffer; source: StoredSource },
  logger: Logger,
): Promise<{ key: Buffer; source: StoredSource }> {
  const pending = await readPending(store);
  if (!pending) return found;
  const dbPath = join(dataDir, DATABASE_FILE_NAME);
  if (pending.equals(found.key) || keyOpensDatabase(dbPath, found.key) === true) {
    await clearPending(store);
    logger.info('dropped the pending key of an unfinished rekey (the database kept its key)');
    return found;
  }
  if (keyOpensDatabase(dbPath, pending) === true) {
    await promotePendingKey(
      store,
      found.source,
      pending,
      logger,
      'could not store the new key of an unfinished rekey; will retry',
    );
    logger.info('finished an interrupted rekey', { keySource: found.source });
    return { key: pending, source: found.source };
  }
  return found;
}

export interface RotateKeyOptions extends ResolveKeyOptions {
  /** The database of `dataDir`, open with its current key. */
  db: Db;
}

/**
 * `cairn rekey`: re-encrypts the database with a new random key, kept where the current key
 * is kept (keychain or key file), and returns its recovery key (the old one stops working).
 * Refused when the key comes from CAIRN_DB_KEY (Cairn cannot change that variable).
 */
export async function rotateDatabaseKey(
  options: RotateKeyOptions,
): Promise<{ key: Buffer; source: StoredSource; recoveryKey: string }> {
  const { dataDir, env, logger, db } = options;
  if (options.dbKeyHex !== undefined || env.CAIRN_DB_KEY?.trim()) {
    throw new CairnError(
      ErrorCode.BadRequest,
      'The database key comes from CAIRN_DB_KEY, which Cairn cannot change. Unset it to let Cairn keep the key (keychain or key file), or re-encrypt with a key of your own.',
    );
  }
  const store = await openStore(options);
  const current = await findStoredKey(store, logger);
  if (!current) throw missingKeyError(dataDir, store);
  const dbPath = join(dataDir, DATABASE_FILE_NAME);
  if (keyOpensDatabase(dbPath, current.key) !== true) {
    throw new CairnError(
      ErrorCode.Conflict,
      `The stored key does not open ${dbPath}; rekey refused so that no key is lost.`,
      { status: 409 },
    );
  }
  const key = randomBytes(32);
  await writeStored(store, current.source, 'pending', key);
  rekeyDatabase(db, key);
  await promotePendingKey(
    store,
    current.source,
    key,
    logger,
    'the new key is kept as pending; it becomes current at the next start',
  );
  logger.info('database re-encrypted with a new key', { keySource: current.source });
  return { key, source: current.source, recoveryKey: formatRecoveryKey(key) };
}

/**
 * "Show the recovery key again" (Settings): the recovery key of the key currently in use.
 * Never generates a key; throws `key_not_found` if none can be found.
 */
export async function getRecoveryKey(
  options: Omit<ResolveKeyOptions, 'dataDir'> & { dataDir: string },
): Promise<string> {
  const { dataDir, env, logger } = options;
  const explicit = options.dbKeyHex ?? (env.CAIRN_DB_KEY?.trim() || undefined);
  if (explicit !== undefined) return formatRecoveryKey(parseHexKey(explicit));
  const recoveryText = env.CAIRN_RECOVERY_KEY?.trim();
  if (recoveryText) return formatRecoveryKey(parseRecoveryKey(recoveryText));
  if (!existsSync(dataDir)) {
    throw new CairnError(ErrorCode.KeyNotFound, `There is no Cairn data folder at ${dataDir}.`, {
      status: 404,
    });
  }
  const store = await openStore(options);
  const found = await findStoredKey(store, logger);
  if (!found) throw missingKeyError(dataDir, store);
  return formatRecoveryKey(found.key);
}
