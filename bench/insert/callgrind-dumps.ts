import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * V8's optimizing and baseline compilers, its parser and bytecode generator: work that compiles a
 * function once and is done in a long-running process, but that V8 spreads over whichever writes
 * run when it decides to (re)compile. Counted apart so the comparison is of the work each insert
 * repeats.
 */
const COMPILING =
  /v8::internal::(compiler|maglev|baseline|interpreter)::|v8::internal::(Compiler|Parser|ParserBase|PreParser|Scanner|Zone|AccountingAllocator|DeclarationScope|OptimizedCompilationInfo|TurbofanCompilationJob)\b/;

/**
 * V8's garbage collector: scavenges of the young generation and full (mark-compact) collections,
 * with their marking, sweeping and evacuation. What one costs depends on what is alive when it
 * runs (a scavenge in the middle of a 1000-row statement copies the statement's objects, one
 * between statements copies next to nothing; a full collection walks every module loaded), and
 * when it runs is a threshold one write crosses and the next does not: a round with one cost
 * 26M instructions more than the same round without. Counted apart, and shown with the rest in
 * "all instructions". A collection itself is counted whole through its own dumps
 * ({@link COLLECTION_DUMPS}); these names catch the collector's work between collections
 * (incremental marking steps, sweeping on allocation) and the write barrier's out-of-line part,
 * where a store records a pointer for the collector (an old object now pointing to a young one,
 * or any object while marking runs). How often a store takes that path is a state of the process,
 * not of the code: a Knex process on MariaDB spends about 55 instructions a row there, but one
 * that came out of its warm-up otherwise spends 200 to 300 a row there round after round (5 of 38
 * processes, with hand-set ids and with snowkey alike), 1.2% to 1.6% of a row's cost. About a
 * third of that state's cost more (45 to 135 a row) is in the barrier's inline part in optimized
 * code, which has no name of its own and stays counted.
 */
const COLLECTING =
  /v8::internal::(MarkCompact|Marking|MainMarking|IncrementalMarking|ConcurrentMarking|Sweeper|Evacuat|FullEvacuator|PointersUpdating|RecordMigratedSlot|LiveObjectRange|RememberedSetUpdating|InternalizedStringTableCleaner|ExternalStringTableCleaner|Scaveng|IterateAndScavenge|RootScavenge|SemiSpaceNewSpace|PretenuringHandler|Heap::InsertIntoRememberedSetFromCode|Heap_CombinedGenerationalAndSharedBarrierSlow)|^Builtins_(RecordWrite|EphemeronKeyBarrier)/;

/** One callgrind dump: the instructions between two `dump` requests, by what ran them. */
export interface Dump {
  /** The name the dump was requested with (`vgdb ... dump <label>`). */
  readonly label: string;
  /** Every instruction the process executed, on every thread. */
  readonly total: number;
  /** Those in V8's compilers, parser and bytecode generator ({@link COMPILING}). */
  readonly compiling: number;
  /** Those in V8's garbage collector ({@link COLLECTING}). */
  readonly collecting: number;
}

/**
 * The collections themselves: callgrind is told to dump just before `Heap::PerformGarbageCollection`
 * and just after `Heap::CollectGarbage` returns ({@link COLLECTION_DUMPS}), so everything a
 * scavenge or a mark-compact runs, whatever its name (the copying `memcpy`, `HeapObject::SizeFromMap`,
 * the embedder's callbacks, allocation in old space), lands in a dump of its own. Matching the
 * collector by function name alone missed about nine tenths of a scavenge: a round with one came
 * out 10% dearer than the same round without.
 */
export const COLLECTION_DUMPS = [
  '--dump-before=v8::internal::Heap::PerformGarbageCollection(*',
  '--dump-after=v8::internal::Heap::CollectGarbage(*',
] as const;

const REQUESTED = 'desc: Trigger: dump ';
const BEFORE_COLLECTION = 'desc: Trigger: --dump-before=';
const AFTER_COLLECTION = 'desc: Trigger: --dump-after=';

/**
 * Reads the dumps callgrind wrote to `dir` for one process (`cg.<pid>.<n>`), in order, and returns
 * one per dump requested through vgdb (`dump <label>`), holding everything since the previous one.
 * The dumps {@link COLLECTION_DUMPS} asks for are folded into the next requested one: the one
 * after a collection counts whole as collecting; the one before it (the writing up to the
 * collection) as any other. Function names are written once per process and referred to by
 * number afterwards, so the files are read in dump order with one name table.
 */
export function readDumps(dir: string, pid: number): Dump[] {
  const prefix = `cg.${pid}.`;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  const names = new Map<string, string>();
  const dumps: Dump[] = [];
  const none = { total: 0, compiling: 0, collecting: 0 };
  let carried = none;
  for (const file of files) {
    const part = parseDump(readFileSync(join(dir, file), 'utf8'), names);
    const sum = {
      total: carried.total + part.total,
      compiling: carried.compiling + part.compiling,
      // A collection's dump is collecting whole, but for any compiling V8 did inside it.
      collecting:
        carried.collecting + (part.trigger === 'collection' ? part.total - part.compiling : part.collecting),
    };
    if (part.trigger === 'requested') {
      dumps.push({ label: part.label, ...sum });
      carried = none;
    } else carried = sum;
  }
  return dumps;
}

const NAMED = /^c?fn=\((\d+)\)(?: (.*))?$/;

interface Part extends Dump {
  /** What asked for the dump: vgdb (`requested`, or the end of the program), or a collection. */
  readonly trigger: 'requested' | 'before-collection' | 'collection';
}

function parseDump(text: string, names: Map<string, string>): Part {
  let label = '';
  let trigger: Part['trigger'] = 'requested';
  let fn = '';
  let compilingFn = false;
  let collectingFn = false;
  let total = 0;
  let compiling = 0;
  let collecting = 0;
  let callCost = false;
  for (const line of text.split('\n')) {
    const first = line.charCodeAt(0);
    if ((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 42) {
      // A cost line ("<position> <Ir>"); the one after a calls= line is the callee's inclusive
      // cost, already counted where the callee's own lines are.
      if (callCost) {
        callCost = false;
        continue;
      }
      const ir = Number(line.slice(line.indexOf(' ') + 1).split(' ', 1)[0]);
      if (!Number.isFinite(ir)) continue;
      total += ir;
      if (compilingFn) compiling += ir;
      else if (collectingFn) collecting += ir;
    } else if (line.startsWith('fn=')) {
      const m = NAMED.exec(line);
      if (m) {
        if (m[2] !== undefined) names.set(m[1]!, m[2]);
        fn = names.get(m[1]!) ?? '';
      } else fn = line.slice(3);
      compilingFn = COMPILING.test(fn);
      collectingFn = COLLECTING.test(fn);
    } else if (line.startsWith('cfn=')) {
      const m = NAMED.exec(line);
      if (m?.[2] !== undefined) names.set(m[1]!, m[2]);
    } else if (line.startsWith('calls=')) callCost = true;
    else if (line.startsWith(REQUESTED)) label = line.slice(REQUESTED.length).trim();
    else if (line.startsWith(AFTER_COLLECTION)) trigger = 'collection';
    else if (line.startsWith(BEFORE_COLLECTION)) trigger = 'before-collection';
  }
  return { label, trigger, total, compiling, collecting };
}
