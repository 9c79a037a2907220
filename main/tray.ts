import { Menu, Tray, nativeImage } from 'electron';
import type { TrayPort, TrayState } from './ports.ts';
import { trayMenuTemplate, trayTooltip, type TrayActions } from './tray-menu.ts';

export interface TrayIcons {
  normal: string;
  /** The same icon with a dot: something waits for the owner. */
  attention: string;
}

/** The tray icon and its menu, redrawn from the state. */
export class ElectronTray implements TrayPort {
  private readonly tray: Tray;
  private attention = false;

  constructor(
    private readonly icons: TrayIcons,
    private readonly actions: TrayActions,
  ) {
    this.tray = new Tray(nativeImage.createFromPath(icons.normal));
    // Left click opens the window on Windows and Linux; macOS shows the menu.
    this.tray.on('click', () => actions.open());
  }

  render(state: TrayState): void {
    const attention = state.pending > 0 || state.serverProblem !== null || state.backupWarning !== null;
    if (attention !== this.attention) {
      this.attention = attention;
      this.tray.setImage(nativeImage.createFromPath(attention ? this.icons.attention : this.icons.normal));
    }
    this.tray.setToolTip(trayTooltip(state));
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(state, this.actions)));
  }

  destroy(): void {
    this.tray.destroy();
  }
}
