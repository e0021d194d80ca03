import type { ProgressEvent } from '@snowkey/merge';
import cliProgress from 'cli-progress';
import type { CliIo } from './io.js';

/**
 * Shows a merge's or rekey's progress on stderr: on a terminal a bar (cli-progress) per
 * (phase, table, source) with rows/s and an ETA, elsewhere one plain line per committed chunk,
 * which logs and tests read.
 */
export function progressDisplay(io: CliIo): { onProgress(p: ProgressEvent): void; stop(): void } {
  if (!io.stderrIsTTY) {
    return {
      onProgress: (p) =>
        io.stderr(
          `progress ${p.phase} ${p.table} ${p.source} ${p.rowsDone}/${p.rowsTotal}${p.finished ? ' done' : ''}\n`,
        ),
      stop: () => {},
    };
  }
  const stream = { write: (s: string) => io.stderr(s), isTTY: true, columns: process.stderr.columns ?? 100 };
  const bar = new cliProgress.SingleBar(
    {
      stream: stream as unknown as NodeJS.WritableStream,
      format: ' {phase} {step} |{bar}| {value}/{total} rows {percentage}% {speed} rows/s ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let current = '';
  let since = { at: performance.now(), rows: 0 };
  const speed = (rows: number) => {
    const s = (performance.now() - since.at) / 1000;
    return s > 0 ? Math.round((rows - since.rows) / s).toLocaleString('en-US') : '-';
  };
  return {
    onProgress(p) {
      const step = `${p.table} ${p.source}`.padEnd(28);
      const id = `${p.phase} ${step}`;
      if (id !== current) {
        if (current) bar.stop();
        current = id;
        since = { at: performance.now(), rows: p.rowsDone };
        bar.start(Math.max(p.rowsTotal, p.rowsDone), p.rowsDone, { phase: p.phase, step, speed: '-' });
      } else bar.update(p.rowsDone, { speed: speed(p.rowsDone) });
      if (p.finished) {
        bar.update(p.rowsDone);
        bar.stop();
        current = '';
      }
    },
    stop: () => {
      if (current) bar.stop();
    },
  };
}
