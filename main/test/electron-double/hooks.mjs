import { URL } from 'node:url';

/** Module resolve hook: `electron` is the test double, never the real package (which would try to download a binary). */
export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./electron.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
