import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { firstLoadBudget } from '../devstack/first-load-budget';

/**
 * The most a page may need, gzipped, before it shows: the shell, the page and what they import statically (issue 32).
 * The shell alone (React, the router, react-query, react-aria's core) is ~117 kB; the richest pages (Ad performance,
 * Alerts, with the table library) ~143 kB.
 */
const FIRST_LOAD_BUDGET_BYTES = 150_000;

// Served by the ingest process under /console/ (api/console/static-app.ts reads dist/console at start).
export default defineConfig({
  base: '/console/',
  plugins: [react(), firstLoadBudget(FIRST_LOAD_BUDGET_BYTES)],
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    assetsDir: 'assets',
  },
  // `npm run dev --workspace console` against the API of a running `npm start`.
  server: { proxy: { '/console/api': 'http://127.0.0.1:8080' } },
});
