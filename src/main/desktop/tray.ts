// The tray icon: server status, open the window, pause memory, quit.
import { Menu, Tray, nativeImage } from 'electron';

export interface TrayOptions {
  icon: string;
  url: string;
  isMemoryEnabled(): boolean;
  setMemoryEnabled(enabled: boolean): void;
  openWindow(): void;
  openDataFolder(): void;
  quit(): void;
}

export interface CairnTray {
  /** Rebuilds the menu (after the memory setting changed elsewhere). */
  refresh(): void;
  destroy(): void;
}

export function createTray(options: TrayOptions): CairnTray {
  const image = nativeImage.createFromPath(options.icon);
  const tray = new Tray(
    image.isEmpty() ? nativeImage.createEmpty() : image.resize({ width: 16, height: 16 }),
  );
  const build = () => {
    const enabled = options.isMemoryEnabled();
    tray.setToolTip(`Cairn — ${enabled ? 'memory on' : 'memory paused'} · ${options.url}`);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: `Server running at ${options.url}`, enabled: false },
        { label: enabled ? 'Memory is on' : 'Memory is paused', enabled: false },
        { type: 'separator' },
        { label: 'Open Cairn', click: () => options.openWindow() },
        {
          label: 'Pause memory',
          type: 'checkbox',
          checked: !enabled,
          click: (item) => {
            options.setMemoryEnabled(!item.checked);
            build();
          },
        },
        { label: 'Open data folder', click: () => options.openDataFolder() },
        { type: 'separator' },
        { label: 'Quit Cairn', click: () => options.quit() },
      ]),
    );
  };
  build();
  tray.on('click', () => options.openWindow());
  return { refresh: build, destroy: () => tray.destroy() };
}
