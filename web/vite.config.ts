import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// The console is served by Atrium itself from dist/web: everything it loads is in that folder, so
// the server's Content-Security-Policy can allow only 'self'.
export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The polyfill is not needed by the browsers the console supports, and would be one more script.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 800,
  },
  // `npx vite --config web/vite.config.ts` during development, with Atrium on its default port.
  server: { proxy: { '/api': 'http://127.0.0.1:8080' } },
});
