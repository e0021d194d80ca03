import type { MergeDatabase } from '../database.js';
import { AdoptRefusedError } from '../errors.js';
import { type AdoptOptions, type AdoptPlan, planAdopt } from './plan-adopt.js';

/**
 * Plans and applies the switch (see {@link planAdopt}), refusing the whole run before any statement
 * when a table cannot be switched safely; a run that stopped half-way resumes when run again.
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
