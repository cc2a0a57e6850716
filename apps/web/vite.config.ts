import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { englishSections } from './vite-plugins/english-sections.ts';
import { inlineHead } from './vite-plugins/inline-head.ts';
import { precompress } from './vite-plugins/precompress';
import { type RoutePreload, routePreloads } from './vite-plugins/route-preloads.ts';

/**
 * The sections of en.json bundled with the entry: what the pages a visitor reaches without
 * the app strings use (the layouts, landing, sign-in and sign-up, pricing, server errors).
 * Every other route loads the rest with its chunk (src/app/router.tsx, `loadAppStrings`).
 */
const FIRST_LOAD_SECTIONS = ['common', 'ui', 'layout', 'auth', 'landing', 'pricing', 'serverErrors'];

/** What every signed-in page loads besides its own chunk: the shell and the rest of English. */
const SIGNED_IN = ['src/app/layouts/signed-in-layout.tsx', 'virtual:english/rest'];

/**
 * The pages opened from an address whose chunks the head starts with the HTML
 * (vite-plugins/route-preloads.ts): the lazy imports of src/app/router.tsx for each path, and
 * whom its guard lets in. A path missing here still works, its chunks just start later.
 */
const ROUTE_PRELOADS: RoutePreload[] = [
  { path: '/', audience: 'visitor', modules: ['src/features/landing/components/landing-page.tsx'] },
  { path: '/login', audience: 'visitor', modules: ['src/app/routes/login-route.tsx'] },
  { path: '/register', audience: 'visitor', modules: ['src/app/routes/register-route.tsx'] },
  { path: '/forgot-password', audience: 'visitor', modules: ['src/features/auth/components/forgot-password-page.tsx'] },
  { path: '/pricing', audience: 'anyone', modules: ['src/features/pricing/components/pricing-page.tsx'] },
  { path: '/dashboard', audience: 'user', modules: [...SIGNED_IN, 'src/app/routes/dashboard-route.tsx'] },
  { path: '/trash', audience: 'user', modules: [...SIGNED_IN, 'src/features/trash/components/trash-page.tsx'] },
  { path: '/shared', audience: 'user', modules: [...SIGNED_IN, 'src/app/routes/shared-with-me-route.tsx'] },
  { path: '/shares', audience: 'user', modules: [...SIGNED_IN, 'src/features/shares/components/shares-page.tsx'] },
  { path: '/settings', audience: 'user', modules: [...SIGNED_IN, 'src/app/routes/settings-route.tsx'] },
];

/**
 * The web app is served by the API server in production (same origin, strict CSP), so in
 * development the Vite server forwards /api to the API server instead of enabling CORS.
 * Paths are relative to this directory: npm runs workspace scripts from here.
 */
export default defineConfig({
  plugins: [react(), tailwindcss(), englishSections(FIRST_LOAD_SECTIONS), inlineHead(), routePreloads(ROUTE_PRELOADS), precompress()],
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
    rolldownOptions: {
      // Required by the inlining below; the app's only entry exports nothing.
      preserveEntrySignatures: false,
      output: {
        // Few requests per page (docs/decisions/0031-web-delivery.md): on a phone's network
        // each file costs a round trip, and over HTTP/1.1 only six go at once. What the entry
        // needs is one chunk beside it, not seven; a shared chunk under 64 KB of source (an
        // icon, a modal, a hook) is copied into each page that reads it rather than fetched
        // on its own. Rolldown's runtime keeps one instance of each copied module.
        codeSplitting: {
          groups: [{ name: 'initial', tags: ['$initial'] }],
          experimentalInlineCommonChunks: { maxSize: 64 * 1024 },
        },
      },
    },
  },
});
