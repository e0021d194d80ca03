import type { MergeSession } from './database.js';
import type { MergeInputs, MergeSetup } from './merge-setup.js';
import type { WorkTables } from './merge-tables.js';
import type { ProgressLedger } from './progress-ledger.js';
import { estimateRows } from './row-estimate.js';
import { loadStage } from './stage-load.js';
import { createStageTable } from './stage-table.js';

/**
 * Reads every source's rows of every merged table into the target's staging tables, each source
 * once, in chunks that commit with their progress row. Resolves to false when the run must stop.
 */
export async function stageSources(
  target: MergeSession,
  inputs: MergeInputs,
  setup: MergeSetup,
  names: WorkTables,
  chunkRows: number,
  ledger: ProgressLedger | null,
): Promise<boolean> {
  for (const name of setup.order) {
    const info = setup.tables.get(name)!;
    const stage = names.stage(info.number);
    await createStageTable(
      target,
      { name: stage, columns: info.staged, extra: [] },
      { temporary: names.temporary, replace: names.temporary },
    );
    for (const [p, s] of inputs.sources.entries()) {
      const columns = info.columns.get(p);
      if (!columns) continue;
      let row = ledger?.get('stage', name, p);
      const total = row?.done ? row.rowsDone : await estimateRows(s.db, name);
      if (row?.done) {
        ledger!.report(row, s.label, total);
        continue;
      }
      if (ledger?.stopping) return false;
      const { stopped } = await loadStage(
        target,
        {
          stage,
          table: name,
          position: p,
          source: s.db,
          columns,
          key: info.key,
          keyColumns: info.sourceKeys.get(p)!,
        },
        chunkRows,
        row?.lastKey ?? null,
        async (tx, chunk) => {
          if (!ledger || !row) return;
          row = { ...row, lastKey: chunk.lastKey, rowsDone: row.rowsDone + chunk.rows, done: chunk.done };
          await ledger.save(tx, row, s.label);
        },
        () => (ledger && row ? ledger.committed(row, s.label, total) : true),
      );
      if (stopped) return false;
    }
  }
  return true;
}
