// Launch at login on Linux, where Electron's setLoginItemSettings does nothing: an XDG
// autostart entry (https://specifications.freedesktop.org/autostart-spec/latest/).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface AutostartOptions {
  /** The command to start Cairn: the AppImage path when run from one, else the executable. */
  executable: string;
  /** $XDG_CONFIG_HOME, default ~/.config. */
  configHome?: string;
}

export function autostartFile(configHome?: string): string {
  return join(configHome || join(homedir(), '.config'), 'autostart', 'dev.cairn.app.desktop');
}

/** Quotes an argument for a desktop entry's Exec key. */
function quoteExec(arg: string): string {
  return /[\s"'\\$`]/.test(arg) ? `"${arg.replace(/(["`$\\])/g, '\\$1')}"` : arg;
}

export function setLinuxAutostart(enabled: boolean, options: AutostartOptions): void {
  const file = autostartFile(options.configHome);
  if (!enabled) {
    rmSync(file, { force: true });
    return;
  }
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    [
      '[Desktop Entry]',
      'Type=Application',
      'Name=Cairn',
      'Comment=Local, encrypted memory for AI agents',
      `Exec=${quoteExec(options.executable)} --hidden`,
      'Terminal=false',
      'X-GNOME-Autostart-enabled=true',
      '',
    ].join('\n'),
  );
}
