import type { MergeDatabase } from '../database.js';
import { AdoptRefusedError } from '../errors.js';
import { type AdoptOptions, type AdoptPlan, planAdopt } from './plan-adopt.js';

/**
 * Plans and applies the switch (see {@link planAdopt}), one statement at a time in plan order; it
 * refuses the whole run, before any statement, when a table in it cannot be switched safely. Each
 * statement leaves the database in a state the next plan reads, so a run that stopped half-way is
 * resumed by running it again. Existing rows keep their keys. Statements wait for the locks they
 * need (an INSERT meanwhile waits too; none fails).
 *
 * @example
 * const done = await applyAdopt(db, { layout: layouts.snowkey });
 * done.steps.length; // statements run
 */
export async function applyAdopt(
  db: MergeDatabase,
  options: AdoptOptions & { readonly onStep?: (step: AdoptPlan['steps'][number]) => void },
): Promise<AdoptPlan> {
  const plan = await planAdopt(db, options);
  if (plan.refused.length > 0) throw new AdoptRefusedError(plan.refused);
  if (plan.steps.length === 0) return plan;
  for (const step of plan.steps) {
    options.onStep?.(step);
    await db.execute(step.sql);
  }
  return plan;
}
