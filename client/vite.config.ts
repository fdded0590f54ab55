import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  // The zod schemas shared with the server (tsconfig.json `paths` says the same for tsc).
  resolve: { alias: { '@contracts': fileURLToPath(new URL('../contracts', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../dist/client', import.meta.url)),
    emptyOutDir: true,
    // No inline module-preload polyfill: the CSP allows only our own script files.
    modulePreload: { polyfill: false },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/trpc': 'http://localhost:3000' } },
});
