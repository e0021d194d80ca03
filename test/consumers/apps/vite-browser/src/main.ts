// Generates and decodes ids in the page, and leaves the result in the body for the test to read.
import { layouts, parseId, Snowflake, toIdString } from '@snowkey/core';

const generator = new Snowflake({ layout: layouts.twitter, workerId: 7, datacenterId: 3 });
const ids = generator.nextIds(1000);
const first = ids[0]!;
const decoded = generator.decode(first);
const result = {
  count: ids.length,
  distinct: new Set(ids).size,
  ascending: ids.every((id, i) => i === 0 || id > ids[i - 1]!),
  first: toIdString(first),
  roundTrip: parseId(toIdString(first)) === first,
  workerId: decoded.workerId,
  datacenterId: decoded.datacenterId,
  timestamp: decoded.timestamp,
};
document.body.dataset.result = JSON.stringify(result);
