/** The bounds of Leaf's dynamic step. */
export interface StepBounds {
  readonly minStep: number;
  readonly maxStep: number;
  /** How long a segment should last. */
  readonly targetSegmentMs: number;
}

/**
 * Meituan Leaf's dynamic step: the step of the next segment, given how long the last one lasted
 * (the time between the last two fetches). A segment that lasted less than the target doubles the
 * step, one that lasted twice the target or more halves it, anything between keeps it, always
 * within `minStep..maxStep`. A busy node so fetches about once per target duration, and an idle
 * one holds few ids it may never use (ids in memory are lost on restart).
 */
export function nextStep(step: number, lastedMs: number | undefined, bounds: StepBounds): number {
  let next = step;
  if (lastedMs !== undefined) {
    if (lastedMs < bounds.targetSegmentMs) next = step * 2;
    else if (lastedMs >= 2 * bounds.targetSegmentMs) next = Math.floor(step / 2);
  }
  return Math.min(bounds.maxStep, Math.max(bounds.minStep, next));
}

/** The bounds of an allocator whose base step is `minStep`: the ceiling is never below the floor. */
export function stepBounds(minStep: number, maxStep: number, targetSegmentMs: number): StepBounds {
  return { minStep, maxStep: Math.max(minStep, maxStep), targetSegmentMs };
}
