// Builds the renderer alone for the headless server (`cairn serve` serves it at `/`) and for
// the end-to-end tests in Chromium. Same sources as the Electron renderer.
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * index.html carries a strict CSP meta tag. The dev server needs an inline React Refresh
 * preamble and a websocket, so in `serve` mode only the meta tag is dropped; builds keep it.
 */
export function cspDevRelax(): Plugin {
  return {
    name: 'cairn-csp-dev-relax',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/i, ''),
  };
}

export default defineConfig({
  root: resolve(import.meta.dirname, 'src/renderer'),
  base: './',
  plugins: [react(), cspDevRelax()],
  build: {
    outDir: resolve(import.meta.dirname, 'out/renderer-web'),
    emptyOutDir: true,
    target: 'es2022',
  },
});
