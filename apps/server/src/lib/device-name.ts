/** WebDAV clients name themselves, not a browser and system: their account-password sign-ins are alerted too. */
const FILE_CLIENTS: Array<[RegExp, string]> = [
  [/rclone\//, 'rclone'],
  [/Microsoft-WebDAV-MiniRedir/, 'Windows Explorer'],
  [/WebDAVFS|WebDAVLib/, 'Finder'],
  [/davfs2/, 'davfs2'],
  [/gvfs/, 'GNOME Files'],
  [/cadaver/, 'cadaver'],
];
const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
];
const SYSTEMS: Array<[RegExp, string]> = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** A person's name for the device behind a User-Agent ('Chrome on Linux'), for sign-in alerts and the Profile page. */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const fileClient = FILE_CLIENTS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (fileClient) return fileClient;
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
