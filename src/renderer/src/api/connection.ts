// Where the API lives and which token to send. In Electron the preload provides both
// (`window.cairn`); in a browser the UI is served by the engine itself, so the base URL is
// the page's origin and the token is asked once and kept in localStorage.
import type { CairnBridge, ImportFileResult } from '../../../shared/ipc.ts';

declare global {
  interface Window {
    cairn?: CairnBridge;
  }
}

const TOKEN_KEY = 'cairn.token';

export interface Connection {
  baseUrl: string;
  token: string | null;
  /** True inside the Electron window (token comes from the app, never asked). */
  desktop: boolean;
}

export function bridge(): CairnBridge | undefined {
  return typeof window !== 'undefined' ? window.cairn : undefined;
}

export function initialConnection(): Connection {
  const b = bridge();
  if (b) return { baseUrl: b.apiBaseUrl, token: b.token, desktop: true };
  let token: string | null;
  try {
    token = window.localStorage.getItem(TOKEN_KEY);
  } catch {
    token = null;
  }
  return { baseUrl: window.location.origin, token, desktop: false };
}

export function storeToken(token: string | null): void {
  try {
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage can be disabled (private mode); the token then lives for this page only.
  }
}

/** Save a file: native dialog in Electron, a download in the browser. */
export async function saveFile(data: string, suggestedName: string): Promise<boolean> {
  const b = bridge();
  if (b) return b.saveExportFile(data, suggestedName);
  download(new Blob([data], { type: 'application/json' }), suggestedName, 10_000);
  return true;
}

/** Pick a file to import: native dialog in Electron, a file input in the browser. */
export function chooseFile(): Promise<ImportFileResult> {
  const b = bridge();
  if (b) return b.chooseImportFile();
  return new Promise((resolve, reject) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = 'application/json,.json';
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (!file) return resolve(null);
      file.text().then((content) => resolve({ name: file.name, content }), reject);
    });
    input.addEventListener('cancel', () => resolve(null));
    input.click();
  });
}

/**
 * Saves binary data (the encrypted backup) through the browser's download: in Electron the
 * default download handler asks where to save it.
 */
export function saveBlob(data: Blob, suggestedName: string): void {
  download(data, suggestedName, 60_000);
}

/** Starts the browser's download of `data`; its URL is let go once the download has it. */
function download(data: Blob, suggestedName: string, keepUrlMs: number): void {
  const url = URL.createObjectURL(data);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = suggestedName;
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), keepUrlMs);
  }
}
