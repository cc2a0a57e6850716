import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { englishSections } from './vite-plugins/english-sections.ts';
import { inlineHead } from './vite-plugins/inline-head.ts';
import { precompress } from './vite-plugins/precompress';

/**
 * The sections of en.json bundled with the entry: what the pages a visitor reaches without
 * the app strings use (the layouts, landing, sign-in and sign-up, pricing, server errors).
 * Every other route loads the rest with its chunk (src/app/router.tsx, `loadAppStrings`).
 */
const FIRST_LOAD_SECTIONS = ['common', 'ui', 'layout', 'auth', 'landing', 'pricing', 'serverErrors'];

/**
 * The web app is served by the API server in production (same origin, strict CSP), so in
 * development the Vite server forwards /api to the API server instead of enabling CORS.
 * Paths are relative to this directory: npm runs workspace scripts from here.
 */
export default defineConfig({
  plugins: [react(), tailwindcss(), englishSections(FIRST_LOAD_SECTIONS), inlineHead(), precompress()],
  server: {
    proxy: {
      '/api': { target: 'http://127.0.0.1:3000' },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Every browser we support has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
  },
});
