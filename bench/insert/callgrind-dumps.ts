import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** V8's compilers and parser: work done once, on whichever write runs when V8 (re)compiles; counted apart. */
const COMPILING =
  /v8::internal::(compiler|maglev|baseline|interpreter)::|v8::internal::(Compiler|Parser|ParserBase|PreParser|Scanner|Zone|AccountingAllocator|DeclarationScope|OptimizedCompilationInfo|TurbofanCompilationJob)\b/;

// V8's collector between collections (incremental marking, sweeping) and the write barrier's slow part:
// it costs what is alive when a write crosses a threshold (one round 26M dearer than the next), so it is
// counted apart. Collections themselves are counted whole through their own dumps.
const COLLECTING =
  /v8::internal::(MarkCompact|Marking|MainMarking|IncrementalMarking|ConcurrentMarking|Sweeper|Evacuat|FullEvacuator|PointersUpdating|RecordMigratedSlot|LiveObjectRange|RememberedSetUpdating|InternalizedStringTableCleaner|ExternalStringTableCleaner|Scaveng|IterateAndScavenge|RootScavenge|SemiSpaceNewSpace|PretenuringHandler|Heap::InsertIntoRememberedSetFromCode|Heap_CombinedGenerationalAndSharedBarrierSlow)|^Builtins_(RecordWrite|EphemeronKeyBarrier)/;

/** One requested dump: the instructions since the previous one, and those of V8's compilers and collector. */
export type Dump = { label: string; total: number; compiling: number; collecting: number };

/** A dump just before and after every collection, so all it runs lands in a dump of its own (names alone missed nine tenths of a scavenge). */
export const COLLECTION_DUMPS = [
  '--dump-before=v8::internal::Heap::PerformGarbageCollection(*',
  '--dump-after=v8::internal::Heap::CollectGarbage(*',
] as const;

/** The requested dumps of one process in `dir` (`cg.<pid>.<n>`), each with the collections' before it. */
export function readDumps(dir: string, pid: number): Dump[] {
  const prefix = `cg.${pid}.`;
  const files = readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
  // Read in order with one name table: callgrind names a function once per process.
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

function parseDump(text: string, names: Map<string, string>) {
  let label = '';
  let trigger: 'requested' | 'before-collection' | 'collection' = 'requested';
  let [inCompiling, inCollecting, callCost] = [false, false, false];
  let [total, compiling, collecting] = [0, 0, 0];
  for (const line of text.split('\n')) {
    const first = line.charCodeAt(0);
    if ((first >= 48 && first <= 57) || first === 43 || first === 45 || first === 42) {
      // A cost line ("<position> <Ir>"); the one after calls= is the callee's inclusive cost, counted at the callee.
      if (callCost) {
        callCost = false;
        continue;
      }
      const ir = Number(line.slice(line.indexOf(' ') + 1).split(' ', 1)[0]);
      if (!Number.isFinite(ir)) continue;
      total += ir;
      if (inCompiling) compiling += ir;
      else if (inCollecting) collecting += ir;
    } else if (line.startsWith('fn=') || line.startsWith('cfn=')) {
      const m = NAMED.exec(line);
      if (m?.[2] !== undefined) names.set(m[1]!, m[2]);
      if (line.startsWith('cfn=')) continue;
      const fn = m ? (names.get(m[1]!) ?? '') : line.slice(3);
      inCompiling = COMPILING.test(fn);
      inCollecting = COLLECTING.test(fn);
    } else if (line.startsWith('calls=')) callCost = true;
    else if (line.startsWith('desc: Trigger: dump '))
      label = line.slice('desc: Trigger: dump '.length).trim();
    else if (line.startsWith('desc: Trigger: --dump-after=')) trigger = 'collection';
    else if (line.startsWith('desc: Trigger: --dump-before=')) trigger = 'before-collection';
  }
  return { label, trigger, total, compiling, collecting };
}
