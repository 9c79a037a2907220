/**
 * The web app is written against React's API and runs on Preact's compatibility layer: the same
 * components, about 50 KB less to download and compile on a phone (react-dom alone was 62 KB
 * gzip of the 101 KB shared chunk; issue 32's Photos page budget is 150 KB). Libraries that import
 * React (React Router, TanStack Query and Virtual) get Preact too, so there is one runtime.
 */
export const preactForReact = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
];

const ZOOM_PLUGIN = /yet-another-react-lightbox\/dist\/plugins\/zoom\/index\.js$/;
const CLEARS_WRAPPER = 'return () => setZoomWrapper(undefined);';

/**
 * The lightbox's zoom registers the slide on screen from a layout effect and clears it in the
 * effect's cleanup. React runs every cleanup of a commit before any new effect; Preact runs them
 * component by component, so stepping back to a slide earlier in the list cleared the new slide's
 * registration and double-tap zoom stopped working. Cleared only while it is still this slide's,
 * the registration is right under either order. The build fails if the library's code changes.
 */
export function zoomUnderPreact() {
  return {
    name: 'hearth-zoom-under-preact',
    enforce: 'pre' as const,
    transform(code: string, id: string) {
      if (!ZOOM_PLUGIN.test(id)) return null;
      if (!code.includes(CLEARS_WRAPPER)) throw new Error(`${id}: the zoom's cleanup changed; see renderer/build/preact-alias.ts`);
      return code.replace(
        CLEARS_WRAPPER,
        'return () => setZoomWrapper((current) => (current && current.zoomWrapperRef === zoomWrapperRef ? undefined : current));',
      );
    },
  };
}
