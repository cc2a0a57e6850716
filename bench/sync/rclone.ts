import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { runTool } from '../../apps/server/test/helpers/dav-clients.ts';

/** rclone on CloudVault's own WebDAV, configured by environment as the tests do (names.test.ts). */
export interface Rclone {
  /** `rclone copy FROM TO --transfers N [EXTRA]`; remote paths are `cloud:<path>`. Answers its wall time in ms. */
  copy(from: string, to: string, extra?: string[]): Promise<number>;
  version: string;
}

/** Null when rclone is not installed: its ceiling is then NOT MEASURED. */
export async function setUpRclone(
  server: { url: string; email: string; password: string },
  transfers: number,
  timeoutMs: number,
): Promise<Rclone | null> {
  let version: string;
  try {
    version = execFileSync('rclone', ['version'], { encoding: 'utf8' }).split('\n')[0] ?? 'rclone';
  } catch {
    return null;
  }
  const obscured = await runTool('rclone', ['obscure', server.password]);
  const env = {
    RCLONE_CONFIG_CLOUD_TYPE: 'webdav',
    RCLONE_CONFIG_CLOUD_URL: `${server.url}/dav/`,
    RCLONE_CONFIG_CLOUD_VENDOR: 'owncloud',
    RCLONE_CONFIG_CLOUD_USER: server.email,
    RCLONE_CONFIG_CLOUD_PASS: obscured.stdout.trim(),
  };
  return {
    version,
    copy: async (from, to, extra = []) => {
      const started = performance.now();
      const run = await runTool('rclone', ['--config', '/dev/null', 'copy', from, to, '--transfers', String(transfers), ...extra], {
        env,
        timeoutMs,
      });
      const ms = performance.now() - started;
      if (run.code !== 0) throw new Error(`rclone copy ${from} ${to} exited ${run.code}:\n${run.stderr.slice(-2000)}`);
      return ms;
    },
  };
}
