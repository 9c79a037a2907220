import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Start at login on Linux, where Electron's setLoginItemSettings does nothing: an XDG
 * autostart entry (~/.config/autostart), as desktop environments read it. The app starts in
 * the tray (--hidden).
 */
export class LinuxAutostart {
  private readonly file: string;

  constructor(
    private readonly command: string,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    const config = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
    this.file = path.join(config, 'autostart', 'hearth.desktop');
  }

  enabled(): boolean {
    return fs.existsSync(this.file);
  }

  set(on: boolean): void {
    if (!on) {
      fs.rmSync(this.file, { force: true });
      return;
    }
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const exec = `"${this.command.replace(/(["\\`$])/g, '\\$1')}" --hidden`;
    fs.writeFileSync(
      this.file,
      ['[Desktop Entry]', 'Type=Application', 'Name=Hearth', `Exec=${exec}`, 'X-GNOME-Autostart-enabled=true', ''].join('\n'),
    );
  }
}
