// The recovery prompt (Electron only): the reason comes in the URL hash, the key goes to
// the main process through the recovery preload, which tries to open the database with it.
import type { RecoveryBridge } from '../../shared/ipc.ts';
import './styles.css';

declare global {
  interface Window {
    cairnRecovery?: RecoveryBridge;
  }
}

const form = document.getElementById('form') as HTMLFormElement;
const input = document.getElementById('key') as HTMLInputElement;
const error = document.getElementById('error') as HTMLElement;
const submit = document.getElementById('submit') as HTMLButtonElement;
const reason = document.getElementById('reason') as HTMLElement;

reason.textContent = decodeURIComponent(window.location.hash.slice(1));
input.focus();

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const key = input.value.trim();
  if (!key) {
    error.textContent = 'Type or paste your recovery key.';
    input.setAttribute('aria-invalid', 'true');
    return;
  }
  submit.disabled = true;
  error.textContent = '';
  void window.cairnRecovery
    ?.submit(key)
    .then((r) => {
      if (!r.ok) {
        error.textContent = r.message ?? 'This recovery key does not open the database.';
        input.setAttribute('aria-invalid', 'true');
      }
    })
    .finally(() => {
      submit.disabled = false;
    });
});

document.getElementById('cancel')?.addEventListener('click', () => {
  void window.cairnRecovery?.cancel();
});
