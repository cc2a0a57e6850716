/** Path of the server bundle `npm start` runs. */
export const SERVER_BUNDLE: string;
/** Builds the web app when its build is missing or stale. */
export function ensureWebBuild(): void;
/** Bundles the server when its bundle is missing or stale. */
export function ensureServerBuild(): Promise<void>;
/** Node's flags for the server process, before the bundle's path. */
export const SERVER_NODE_FLAGS: string[];
