/**
 * `node --import ./register.mjs dist-electron/main.js` runs the real compiled main/ against the
 * Electron double. In a process the double forked as a utility process, it also provides
 * Electron's `process.parentPort` over Node's IPC channel.
 */
import { EventEmitter } from 'node:events';
import { register } from 'node:module';
import process from 'node:process';

// The server's process imports nothing of Electron: no hook there (it would cost a loader thread).
if (process.env.HEARTH_DOUBLE_UTILITY !== '1') register('./hooks.mjs', import.meta.url);
Object.defineProperty(process.versions, 'electron', { value: '45.4.1', enumerable: true });

if (process.env.HEARTH_DOUBLE_UTILITY === '1') {
  const parentPort = new EventEmitter();
  parentPort.postMessage = (message) => process.send(message);
  process.on('message', (message) => parentPort.emit('message', { data: message }));
  process.parentPort = parentPort;
}
