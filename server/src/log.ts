import type { LogLevel } from './config.ts';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * One JSON line per entry on stderr. Callers pass fields, never whole requests or bodies,
 * so a token or password has no path into the log.
 */
export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const at = (entryLevel: Exclude<LogLevel, 'silent'>) => (msg: string, fields?: LogFields) => {
    if (ORDER[entryLevel] < ORDER[level]) return;
    write(JSON.stringify({ t: new Date().toISOString(), level: entryLevel, msg, ...fields }) + '\n');
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
