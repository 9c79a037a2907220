/**
 * `node --import ./register.mjs dist-electron/main.js` runs the real compiled main/ against the
 * Electron double. In a process the double forked as a utility process, it also provides
 * Electron's `process.parentPort` over Node's IPC channel (electron/lib/utility/init.ts), and
 * Node's crypto as Electron's BoringSSL has it (this preload runs in that process's worker
 * threads too).
 */
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { register, syncBuiltinESMExports } from 'node:module';
import process from 'node:process';

// The server's process imports nothing of Electron: no hook there (it would cost a loader thread).
if (process.env.HEARTH_DOUBLE_UTILITY !== '1') register('./hooks.mjs', import.meta.url);
Object.defineProperty(process.versions, 'electron', { value: '45.4.1', enumerable: true });

if (process.env.HEARTH_DOUBLE_UTILITY === '1') {
  const parentPort = new EventEmitter();
  parentPort.postMessage = (message) => process.send(message);
  // As Electron's: the port starts with its first 'message' listener and pauses without one, so
  // what main sent while the entry's modules were still loading (a top-level await) waits.
  const waiting = [];
  let started = false;
  process.on('message', (message) => (started ? parentPort.emit('message', { data: message }) : waiting.push(message)));
  parentPort.on('newListener', (name) => {
    if (name !== 'message' || started) return;
    started = true;
    // Once the listener is in (this runs just before); IPC messages come later, in order.
    process.nextTick(() => {
      for (const message of waiting.splice(0)) parentPort.emit('message', { data: message });
    });
  });
  parentPort.on('removeListener', (name) => {
    if (name === 'message' && parentPort.listenerCount('message') === 0) started = false;
  });
  process.parentPort = parentPort;
  cryptoAsInElectron();
}

/**
 * Electron's BoringSSL lists no `chacha20-poly1305` and refuses it to createCipheriv and
 * createDecipheriv (electron/electron#24024), the cipher of every encrypted backup: the server
 * must find that out and bring its own (age-aead.ts), as it does in the real app.
 */
function cryptoAsInElectron() {
  const missing = new Set(['chacha20-poly1305']);
  const { getCiphers, createCipheriv, createDecipheriv } = crypto;
  const refuse = (make) =>
    function (algorithm, ...rest) {
      if (missing.has(String(algorithm).toLowerCase()))
        throw Object.assign(new Error('Unknown cipher'), { code: 'ERR_CRYPTO_UNKNOWN_CIPHER' });
      return make.call(this, algorithm, ...rest);
    };
  crypto.getCiphers = () => getCiphers().filter((name) => !missing.has(name));
  crypto.createCipheriv = refuse(createCipheriv);
  crypto.createDecipheriv = refuse(createDecipheriv);
  syncBuiltinESMExports();
}
