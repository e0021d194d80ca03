// `pnpm bench:public-id-collisions`: 5M consecutive keys and 5M generator ids encoded, each decoded back,
// all 10M public ids in one Set; exits 1 on a round-trip fault or a collision.
import { publicIdCodec } from '@snowkey/core';
import { steadyGenerator } from './measure.js';

const HALF = Number(process.env.COLLISION_HALF ?? 5_000_000);
const codec = publicIdCodec({ key: '5f0c7e2a9b3d4e6f8a1b2c3d4e5f6a7b', entity: 'order' });

const gen = steadyGenerator();

const seen = new Set<string>();
let roundTripFaults = 0;
let checked = 0;
const started = performance.now();

function check(id: bigint): void {
  const pid = codec.encode(id);
  if (codec.decode(pid) !== id) roundTripFaults++;
  seen.add(pid);
  checked++;
  if (checked % 1_000_000 === 0) {
    console.log(`${checked / 1e6}M checked, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  }
}

for (let id = 1n; id <= BigInt(HALF); id++) check(id);
for (let left = HALF; left > 0; left -= 10_000)
  for (const id of gen.nextIds(Math.min(10_000, left))) check(id);

const collisions = checked - seen.size;
console.log(
  `\n${checked.toLocaleString('en')} keys (${HALF.toLocaleString('en')} consecutive from 1, ${HALF.toLocaleString('en')} generator ids): ` +
    `${roundTripFaults} round-trip faults, ${collisions} collisions, ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
if (roundTripFaults > 0 || collisions > 0) process.exit(1);
