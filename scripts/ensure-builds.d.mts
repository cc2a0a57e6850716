/** Path of the server bundle `npm start` runs. */
export const SERVER_BUNDLE: string;
/** Builds the web app when its build is missing or stale. */
export function ensureWebBuild(): void;
/** Bundles the server when its bundle is missing or stale. */
export function ensureServerBuild(): Promise<void>;
