import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the ingest process under /console/ (api/console/static-app.ts reads dist/console at start).
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 1500,
  },
  // `npm run dev --workspace console` against the API of a running `npm start`.
  server: { proxy: { '/console/api': 'http://127.0.0.1:8080' } },
});
