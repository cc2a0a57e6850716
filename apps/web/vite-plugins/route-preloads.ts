import type { Plugin, Rolldown } from 'vite';
import { API_BASE, EARLY_PROFILE_PROPERTY, PROFILE_PATH, TOKEN_KEY } from '../src/lib/early-session.ts';

/** Whose page it is: a route guard sends everybody else elsewhere, so their chunks would be wasted. */
export type RouteAudience = 'visitor' | 'user' | 'anyone';

export interface RoutePreload {
  /** The address, exactly as `location.pathname` reads it. */
  path: string;
  audience: RouteAudience;
  /** The modules the page's lazy imports start from (paths from the web app's root, or virtual ids). */
  modules: string[];
}

/**
 * Writes a small inline script into index.html's head that starts, while the entry is still
 * downloading, what the opened page waits for once the entry has run (docs/decisions/0031-web-delivery.md):
 * - the page's chunks (`<link rel="modulepreload">`), instead of after the router has matched
 *   the address: one round trip less before the page can render. The session test mirrors
 *   src/app/router.tsx's guards: a stored token means signed in. A signed-in page's chunks
 *   at low priority: its first paint (the start-up spinner, until the session answers) needs
 *   the entry alone, which then has the bandwidth to itself; a public page's content is in
 *   its chunk, which stays at high priority;
 * - with a stored token, the start-up session check's profile request, which every listed
 *   page's guard makes at its first render: the app reads its answer instead of asking again
 *   (src/lib/early-session.ts, src/lib/session.ts), so a signed-in page does not wait a
 *   round trip after the entry ran. Other paths (a mailed link's page) do not check the
 *   session at once, so nothing is sent for them.
 * Build only; the server's CSP allows the script by its sha256 like the theme script
 * (apps/server/src/modules/web/inline-scripts.ts).
 */
export function routePreloads(routes: readonly RoutePreload[]): Plugin {
  return {
    name: 'cloudvault-route-preloads',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output): output is Rolldown.OutputChunk => output.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!entry) throw new Error('route-preloads: the bundle has no entry chunk');
        const loadedWithEntry = staticClosure([entry.fileName], byFile);

        const table: Record<string, { a: RouteAudience; f: string[] }> = {};
        for (const route of routes) {
          const starts = route.modules.map((module) => {
            const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module));
            if (!chunk) throw new Error(`route-preloads: no chunk starts at ${module} (${route.path})`);
            return chunk.fileName;
          });
          const files = [...staticClosure(starts, byFile)].filter((file) => !loadedWithEntry.has(file));
          table[route.path] = { a: route.audience, f: files.map((file) => `/${file}`) };
        }
        return html.replace('</head>', () => `<script>${preloadScript(table)}</script>\n  </head>`);
      },
    },
  };
}

/** These chunks and every chunk they import statically (what the browser fetches before running them). */
function staticClosure(files: string[], byFile: Map<string, Rolldown.OutputChunk>): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of byFile.get(file)?.imports ?? []) visit(imported);
  };
  files.forEach(visit);
  return seen;
}

/**
 * ES5 for the head (like public/theme.js): the profile request when a token is stored (its
 * failure is the app's to handle, hence the empty catch: no unhandled rejection), then the
 * page's chunks if the visitor is who the page is for.
 */
function preloadScript(table: Record<string, { a: RouteAudience; f: string[] }>): string {
  const profile = JSON.stringify(`${API_BASE}${PROFILE_PATH}`);
  const property = JSON.stringify(EARLY_PROFILE_PROPERTY);
  return `(function(){var r=${JSON.stringify(table)}[location.pathname];if(!r)return;var t=null;try{t=localStorage.getItem(${JSON.stringify(TOKEN_KEY)})}catch(e){}if(t){var p=fetch(${profile},{headers:{Accept:'application/json',Authorization:'Bearer '+t}});p.catch(function(){});window[${property}]={token:t,response:p}}if(r.a==='visitor'&&t||r.a==='user'&&!t)return;r.f.forEach(function(f){var l=document.createElement('link');l.rel='modulepreload';if(r.a==='user')l.fetchPriority='low';l.crossOrigin='';l.href=f;document.head.appendChild(l)})})()`;
}
