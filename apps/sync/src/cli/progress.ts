/**
 * What a pass shows while it works. On a terminal: one line rewritten in place,
 * `12/340 files, 48 MB of 1.2 GB, 31 MB/s, 38 s left`. Elsewhere (a log, a pipe): one plain
 * line per action done, and the summary.
 */

/** How a pass reports; the engine knows nothing of terminals. */
export interface ProgressReporter {
  /** The pass has `files` actions to carry out, moving `bytes` bytes in all. */
  start(files: number, bytes: number): void;
  /** One action is done (`bytes` transferred by it). */
  done(line: string, bytes: number): void;
  /** A line of the command's answer, printed as it is whatever the output is (a dry run's plan). */
  print(line: string): void;
  /** Something to say that is not an action (a warning, a failure). */
  note(line: string): void;
  /** The pass is over: the summary line. */
  finish(summary: string): void;
}

/** 1536 -> `1.5 KB`: decimal units, as drives are sold. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.ceil(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.ceil((seconds % 3600) / 60)} min`;
}

/** The terminal line: counts, bytes, the rate since the start and the time left at that rate. */
export function progressLine(state: { doneFiles: number; files: number; doneBytes: number; bytes: number; elapsedMs: number }): string {
  const parts = [`${state.doneFiles}/${state.files} files`];
  if (state.bytes > 0) parts.push(`${formatBytes(state.doneBytes)} of ${formatBytes(state.bytes)}`);
  const seconds = state.elapsedMs / 1000;
  if (seconds > 0.5 && state.doneBytes > 0) {
    const rate = state.doneBytes / seconds;
    parts.push(`${formatBytes(rate)}/s`);
    if (state.bytes > state.doneBytes) parts.push(`${formatSeconds((state.bytes - state.doneBytes) / rate)} left`);
  }
  return parts.join(', ');
}

/** The reporter for this process: a live line on a terminal, log lines otherwise; `now` is injected for tests. */
export function createProgress(stream: NodeJS.WriteStream = process.stdout, now: () => number = Date.now): ProgressReporter {
  const tty = Boolean(stream.isTTY);
  const state = { doneFiles: 0, files: 0, doneBytes: 0, bytes: 0, startedAt: now() };
  let shown = false;
  const redraw = () => {
    const line = progressLine({ ...state, elapsedMs: now() - state.startedAt });
    stream.write(`\r\x1b[2K${line}`);
    shown = true;
  };
  const clear = () => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  return {
    start(files, bytes) {
      Object.assign(state, { doneFiles: 0, files, doneBytes: 0, bytes, startedAt: now() });
      if (tty && files > 0) redraw();
    },
    done(line, bytes) {
      state.doneFiles += 1;
      state.doneBytes += bytes;
      if (tty) redraw();
      else stream.write(`${line}\n`);
    },
    print(line) {
      if (tty) clear();
      stream.write(`${line}\n`);
    },
    note(line) {
      if (tty) clear();
      process.stderr.write(`${line}\n`);
      if (tty && state.files > 0) redraw();
    },
    finish(summary) {
      if (tty) clear();
      stream.write(`${summary}\n`);
    },
  };
}
