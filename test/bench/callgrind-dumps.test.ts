import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { readDumps } from '../../bench/insert/callgrind-dumps.js';

const dir = mkdtempSync(join(tmpdir(), 'sk-callgrind-dumps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Two dumps of one process as callgrind writes them: names given once with their number, then
// the number alone; a calls= line followed by the callee's inclusive cost, which is not the
// caller's own.
const first = `version: 1
creator: callgrind-3.19.0
pid: 77
cmd:  node child.ts
part: 1

desc: I1 cache:
desc: Trigger: dump a.0.hand-set.0

positions: line
events: Ir
summary: 1511

ob=(1) /usr/bin/node
fl=(1) ???
fn=(1) Builtins_LoadIC
0 100
+2 50
cfn=(2) v8::internal::compiler::PipelineImpl::OptimizeGraph(v8::internal::compiler::Linkage*)
calls=1 0
0 900
fn=(2)
0 900
fn=(3) v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)
* 61
fn=(5) v8::internal::Sweeper::RawSweep(v8::internal::Page*, v8::internal::FreeSpaceTreatmentMode, v8::internal::Sweeper::SweepingMode)
0 400

totals: 1511
`;
const second = dumpFile(
  77,
  2,
  'dump a.0.snowkey.0',
  `fn=(1)
0 200
fn=(2)
0 30
fn=(4) v8::internal::maglev::MaglevGraphBuilder::Build()
0 7
fn=(6) void v8::internal::MarkingVisitorBase<v8::internal::MainMarkingVisitor<v8::internal::MarkingState>, v8::internal::MarkingState>::ProcessStrongHeapObject()
0 20
fn=(5)
0 3`,
);

/** A dump after a process's first, as callgrind writes it: a short header, the trigger, the costs. */
function dumpFile(pid: number, part: number, trigger: string, costs: string): string {
  return `version: 1\npid: ${pid}\npart: ${part}\n\ndesc: Trigger: ${trigger}\n\nevents: Ir\n${costs}\n`;
}

test('GIVEN the dumps of one process THEN each counts its own cost lines once, names carried from earlier dumps, with the compilers and the collector apart', () => {
  writeFileSync(join(dir, 'cg.77.2'), second);
  writeFileSync(join(dir, 'cg.77.1'), first);
  writeFileSync(join(dir, 'cg.78.1'), second.replace('dump a.0', 'dump other'));
  expect(readDumps(dir, 77)).toEqual([
    { label: 'a.0.hand-set.0', total: 100 + 50 + 900 + 61 + 400, compiling: 900, collecting: 400 },
    { label: 'a.0.snowkey.0', total: 260, compiling: 37, collecting: 23 },
  ]);
});

// A collection in the middle of a write: callgrind dumps before Heap::PerformGarbageCollection
// and after Heap::CollectGarbage (COLLECTION_DUMPS), then at the write's own dump request.
const beforeCollection = dumpFile(
  79,
  1,
  '--dump-before=v8::internal::Heap::PerformGarbageCollection(v8::internal::GarbageCollector)',
  `fn=(1) Builtins_LoadIC
0 500
fn=(2) v8::internal::maglev::MaglevGraphBuilder::Build()
0 40
fn=(3) v8::internal::IncrementalMarking::Step()
0 6`,
);
const collection = dumpFile(
  79,
  2,
  '--dump-after=v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace)',
  `fn=(4) __memcpy_avx_unaligned_erms
0 3000
fn=(5) v8::internal::HeapObject::SizeFromMap(v8::internal::Map) const
0 200
fn=(6) v8::internal::Scavenger::Process(v8::JobDelegate*)
0 100`,
);
const rest = dumpFile(79, 3, 'dump a.1.snowkey.0', 'fn=(1)\n0 70\nfn=(4)\n0 9');
const end = dumpFile(79, 4, 'Program termination', 'fn=(1)\n0 11');

test('GIVEN a collection between two dump requests THEN all of its dump counts as collecting, the work before it as before, and both go to the next requested dump', () => {
  writeFileSync(join(dir, 'cg.79.1'), beforeCollection);
  writeFileSync(join(dir, 'cg.79.2'), collection);
  writeFileSync(join(dir, 'cg.79.3'), rest);
  writeFileSync(join(dir, 'cg.79'), end);
  expect(readDumps(dir, 79)).toEqual([
    { label: 'a.1.snowkey.0', total: 546 + 3300 + 79, compiling: 40, collecting: 6 + 3300 },
  ]);
});

test("GIVEN the write barrier's out-of-line code in a dump THEN it counts as collecting, and optimized code (no name) as the write's own", () => {
  writeFileSync(
    join(dir, 'cg.81.1'),
    dumpFile(
      81,
      1,
      'dump a.2.snowkey.0',
      `fn=(1) Builtins_RecordWriteSaveFP
0 210
fn=(2) Builtins_RecordWriteIgnoreFP
0 12
fn=(3) v8::internal::Heap::InsertIntoRememberedSetFromCode(v8::internal::MemoryChunk*, unsigned long)
0 3
fn=(4) v8::internal::Heap_CombinedGenerationalAndSharedBarrierSlow(v8::internal::HeapObject, unsigned long, v8::internal::HeapObject)
0 5
fn=(7) Builtins_EphemeronKeyBarrierSaveFP
0 2
fn=(5) 0x000000000d063754
0 4000
fn=(6) v8::internal::compiler::MemoryLowering::ComputeWriteBarrierKind(v8::internal::compiler::Node*)
0 8`,
    ),
  );
  expect(readDumps(dir, 81)).toEqual([
    {
      label: 'a.2.snowkey.0',
      total: 210 + 12 + 3 + 5 + 2 + 4000 + 8,
      compiling: 8,
      collecting: 210 + 12 + 3 + 5 + 2,
    },
  ]);
});
