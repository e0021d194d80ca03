// The free variables of the guide pages' fragments, declared with their types (what rustdoc's
// hidden `# ` lines do). A fragment is checked after an import of the names it uses from here;
// see CONTRIBUTING.md, "Docs are code". The guide is read by users, so it imports the packages by
// their public names.
import type { SegmentAllocator } from '@snowkey/core';

export type { SqlParam } from '@snowkey/core';

/** A segment allocator of the orders tag. */
export declare const orders: SegmentAllocator;
