import type { MenuItemConstructorOptions } from 'electron';
import type { TrayState } from './ports.ts';

export interface TrayActions {
  open(): void;
  copyPhoneUrl(): void;
  makeRecoveryCode(): void;
  openBackups(): void;
  toggleOpenAtLogin(): void;
  quit(): void;
}

/** The tray menu for a state: plain data, so its content is tested without Electron. */
export function trayMenuTemplate(state: TrayState, actions: TrayActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [
    { label: state.pending > 0 ? `Open Hearth (${state.pending} waiting)` : 'Open Hearth', click: () => actions.open() },
    { type: 'separator' },
  ];
  if (state.serverProblem !== null) items.push({ label: state.serverProblem, enabled: false }, { type: 'separator' });
  else if (state.backupWarning !== null) {
    items.push({ label: `${state.backupWarning.headline}: see Backups…`, click: () => actions.openBackups() }, { type: 'separator' });
  } else if (state.noBackupYet) items.push({ label: 'Set up a backup…', click: () => actions.openBackups() }, { type: 'separator' });
  items.push(
    state.awaitingSetup
      ? { label: 'Finish setup in the Hearth window to connect phones', click: () => actions.open() }
      : state.phoneUrl !== null
        ? { label: `On a phone, open ${state.phoneUrl}`, toolTip: 'Click to copy', click: () => actions.copyPhoneUrl() }
        : { label: 'No network: connect this PC to your home network', enabled: false },
    { type: 'separator' },
  );
  // The owner's way back in from any device: being at this PC is the proof.
  if (!state.awaitingSetup && state.serverProblem === null) {
    items.push({ label: 'Owner locked out? Make a recovery code…', click: () => actions.makeRecoveryCode() }, { type: 'separator' });
  }
  items.push(
    { label: 'Start at login', type: 'checkbox', checked: state.openAtLogin, click: () => actions.toggleOpenAtLogin() },
    { type: 'separator' },
    { label: 'Quit Hearth', click: () => actions.quit() },
  );
  return items;
}

export function trayTooltip(state: TrayState): string {
  if (state.serverProblem !== null) return `Hearth: ${state.serverProblem}`;
  if (state.pending > 0) return `Hearth: ${state.pending === 1 ? 'a device is' : `${state.pending} devices are`} waiting for approval`;
  if (state.backupWarning !== null) {
    const { headline, reason } = state.backupWarning;
    return `Hearth: ${headline}.${reason === null ? '' : ` ${reason}`}`;
  }
  return 'Hearth is running';
}
