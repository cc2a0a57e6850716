import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
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

/** The app's light canvas and header (src/styles.css); index.html has the dark theme colour. */
const LIGHT_CANVAS = '#f6f7fb';
const LIGHT_HEADER = '#ffffff';

/**
 * What makes the app installable (docs/decisions/0065-installable-app.md, 0066): the manifest
 * and the service worker src/service-worker/sw.ts, which Workbox builds with the precache
 * manifest of the app shell (index.html and the hashed assets, so an old page never meets new
 * assets). A new version waits until the user accepts it (`prompt`, src/features/app-updates);
 * the page registers it itself, so no registration script is injected.
 */
const installableApp = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  strategies: 'injectManifest',
  srcDir: 'src/service-worker',
  filename: 'sw.ts',
  manifest: {
    id: '/',
    name: 'CloudVault',
    short_name: 'CloudVault',
    description: 'Store, sync and share your files and folders from any device.',
    start_url: '/dashboard',
    scope: '/',
    display: 'standalone',
    theme_color: LIGHT_HEADER,
    background_color: LIGHT_CANVAS,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    shortcuts: [
      { name: 'Upload', url: '/dashboard?upload=1', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
      { name: 'Recent', url: '/recent', icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }] },
    ],
    // CloudVault in the phone's share sheet: the service worker keeps what arrives on the
    // device and opens /share to pick a folder (src/service-worker/share-target.ts); the
    // server answers a POST no service worker caught. Any file: `*/*`, the common families named
    // as well, as the published examples do. A shared text or link arrives as a note (.txt).
    share_target: {
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: {
        title: 'title',
        text: 'text',
        url: 'url',
        files: [{ name: 'files', accept: ['*/*', 'image/*', 'video/*', 'audio/*', 'text/*', 'application/*'] }],
      },
    },
  },
  injectManifest: {
    // The build's own files, not the .br and .gz copies beside them (vite-plugins/precompress.ts).
    globPatterns: ['**/*.{html,js,css,svg,png,woff2}'],
    // pdf.js's worker (1.2 MB, only for PDFs) stays out: every install would fetch it for the
    // few who open a PDF offline. theme.js is inlined into index.html (vite-plugins/inline-head.ts).
    globIgnores: ['**/pdf.worker*', 'theme.js'],
  },
});

/**
 * The web app is served by the API server in production (same origin, strict CSP), so in
 * development the Vite server forwards /api to the API server instead of enabling CORS.
 * Paths are relative to this directory: npm runs workspace scripts from here.
 */
export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    englishSections(FIRST_LOAD_SECTIONS),
    inlineHead(),
    routePreloads(ROUTE_PRELOADS),
    precompress(),
    installableApp,
  ],
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
