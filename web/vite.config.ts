// Builds the dashboard (web/) into dist/app/, served by the server at /app/ (docs/dashboard.md).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  // Vite puts this placeholder on its tags and in <meta property="csp-nonce">; the server swaps in a fresh nonce per
  // answer, which Mantine gives the <style> tags it injects (src/modules/dashboard/app-assets.ts).
  html: { cspNonce: 'SUBWEAVE_CSP_NONCE' },
  build: {
    outDir: fileURLToPath(new URL('../dist/app', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Asset files are inlined as data: URLs only when tiny; the CSP allows data: for images only.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
