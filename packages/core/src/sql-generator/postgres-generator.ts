import { leaseTableDdl } from '../lease/lease-table.js';
import type { GeneratorPlan, SqlScript } from './sql-generator.js';

const NOW_MS = 'floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint';

/**
 * PostgreSQL: a PL/pgSQL `snowkey_next_id()`, usable as `id BIGINT DEFAULT snowkey_next_id()`.
 * A call locks one node id's row (`FOR UPDATE SKIP LOCKED`, starting at the slot of the session's
 * backend pid) until its transaction ends, so concurrent transactions take different node ids and
 * a transaction waits only when every node id is in use by another.
 */
export const postgresGenerator = {
  install(p: GeneratorPlan): SqlScript {
    return script([leaseTableDdl('postgres', p.leaseTable), nodesTable(p), register(p), nextId(p)]);
  },
  uninstall(p: GeneratorPlan): SqlScript {
    const bits = p.sequenceBits;
    return script([
      'DROP FUNCTION IF EXISTS snowkey_next_id()',
      `UPDATE ${p.leaseTable} AS l SET holder = NULL, version = l.version + 1, expires_at = 0,
  high_water = GREATEST(l.high_water, ${p.epoch} + COALESCE(s.last_value >> ${bits}, -1) * ${p.unitMs}),
  renewed_at = ${NOW_MS}
FROM ${p.nodesTable} AS n JOIN pg_sequences AS s ON (quote_ident(s.schemaname) || '.' || quote_ident(s.sequencename))::regclass = n.seq
WHERE l.node_id = n.node_id AND l.holder = '${p.holder}'`,
      // Drops the node ids' sequences too: each is owned by the table.
      `DROP TABLE IF EXISTS ${p.nodesTable}`,
    ]);
  },
};

function script(statements: string[]): SqlScript {
  return { statements, text: `${statements.join(';\n\n')};\n` };
}

/**
 * One row per node id the database holds, and a sequence of its own that counts
 * `unit << sequenceBits | sequence`: non-transactional and durable, so an id is never issued twice,
 * not even by a transaction that rolls back, and no row is updated per id.
 */
function nodesTable(p: GeneratorPlan): string {
  return `CREATE TABLE IF NOT EXISTS ${p.nodesTable} (
  slot INTEGER NOT NULL PRIMARY KEY,
  node_id INTEGER NOT NULL UNIQUE,
  node_part BIGINT NOT NULL,
  seq REGCLASS NOT NULL
)`;
}

/**
 * Registers node ids, highest free first, until `nodes` are registered. A free id is one with no
 * lease row, or a released or expired row (taken over only if its version is unchanged, like an
 * application's claim); its sequence starts in the unit after the previous holder's ceiling or
 * high-water mark.
 */
function register(p: GeneratorPlan): string {
  return `DO $snowkey$
DECLARE
  now_ms bigint := ${NOW_MS};
  have integer;
  candidate integer := ${p.maxNodeId};
  r record;
  after_ms bigint;
  changed integer;
  seq_name text;
BEGIN
  LOCK TABLE ${p.nodesTable} IN EXCLUSIVE MODE;
  SELECT count(*) INTO have FROM ${p.nodesTable};
  WHILE have < ${p.nodes} AND candidate >= 0 LOOP
    changed := 0;
    SELECT holder, version, expires_at, ceiling, high_water INTO r FROM ${p.leaseTable} WHERE node_id = candidate;
    IF NOT FOUND THEN
      after_ms := 0;
      INSERT INTO ${p.leaseTable} (node_id, holder, version, expires_at, ceiling, high_water, renewed_at)
        VALUES (candidate, '${p.holder}', 1, ${p.forever}, ${p.forever}, 0, now_ms)
        ON CONFLICT (node_id) DO NOTHING;
      GET DIAGNOSTICS changed = ROW_COUNT;
    ELSIF r.holder IS NULL OR (r.expires_at < now_ms AND r.holder <> '${p.holder}') THEN
      after_ms := CASE WHEN r.holder IS NULL THEN r.high_water ELSE GREATEST(r.ceiling, r.high_water) END;
      UPDATE ${p.leaseTable} SET holder = '${p.holder}', version = version + 1, expires_at = ${p.forever},
          ceiling = ${p.forever}, high_water = after_ms, renewed_at = now_ms
        WHERE node_id = candidate AND version = r.version;
      GET DIAGNOSTICS changed = ROW_COUNT;
    END IF;
    IF changed = 1 THEN
      seq_name := '${p.nodesTable}_' || candidate;
      EXECUTE 'DROP SEQUENCE IF EXISTS ' || seq_name;
      EXECUTE format('CREATE SEQUENCE %s AS bigint MINVALUE 0 START WITH %s OWNED BY ${p.nodesTable}.node_id', seq_name,
        (GREATEST(-1, floor((after_ms - ${p.epoch})::numeric / ${p.unitMs}))::bigint + 1) << ${p.sequenceBits});
      INSERT INTO ${p.nodesTable} (slot, node_id, node_part, seq)
        VALUES (have, candidate, candidate::bigint << ${p.nodeShift}, seq_name::regclass);
      have := have + 1;
    END IF;
    candidate := candidate - 1;
  END LOOP;
  IF have < ${p.nodes} THEN
    RAISE EXCEPTION 'snowkey: only % of the ${p.nodes} node ids asked for are free in ${p.leaseTable} (0..${p.maxNodeId}); nothing was installed', have;
  END IF;
END
$snowkey$`;
}

/**
 * The generator (SPEC.md section 4, with no waiting), on the node id's sequence `c`
 * (`unit << sequenceBits | sequence`): `nextval` goes on in the stored unit (the same unit, a
 * clock behind it, or a used-up sequence that carries into the next unit); when the clock has
 * passed the unit, the sequence is moved to the clock's unit, which only the transaction holding
 * the node id's row may do. So ids only grow per node id, whatever the clock does.
 */
function nextId(p: GeneratorPlan): string {
  const row = `SELECT node_id, node_part, seq INTO v_node, v_part, v_seq FROM ${p.nodesTable}
    WHERE slot < ${p.nodes} ORDER BY (slot + ${p.nodes} - pg_backend_pid() % ${p.nodes}) % ${p.nodes} LIMIT 1`;
  return `CREATE OR REPLACE FUNCTION snowkey_next_id() RETURNS bigint
LANGUAGE plpgsql VOLATILE AS $snowkey$
DECLARE
  v_node integer;
  v_part bigint;
  v_seq regclass;
  v_c bigint;
  v_s bigint;
  v_now bigint;
BEGIN
  ${row} FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    -- every node id is in use by another transaction: wait for this session's own
    ${row} FOR UPDATE;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'snowkey_next_id(): no node id is registered in ${p.nodesTable}; run snowkey sql install';
    END IF;
  END IF;
  v_c := nextval(v_seq);
  v_now := floor((extract(epoch FROM clock_timestamp()) * 1000 - ${p.epoch}) / ${p.unitMs});
  IF v_c >> ${p.sequenceBits} < v_now THEN
    -- a new unit: the sequence goes on below half its range (modulo balance), else from 0
    v_s := v_c & ${p.maxSequence};
    v_c := (v_now << ${p.sequenceBits}) | CASE WHEN v_s < ${p.halfSequence} THEN v_s ELSE 0 END;
    PERFORM setval(v_seq, v_c);
  END IF;
  IF v_c >> ${p.sequenceBits} > ${p.maxUnit} THEN
    RAISE EXCEPTION 'snowkey_next_id(): unit % is past the last unit of the layout (${p.maxUnit})', v_c >> ${p.sequenceBits};
  END IF;
  RETURN ((v_c >> ${p.sequenceBits}) << ${p.timestampShift}) | v_part | ((v_c & ${p.maxSequence}) << ${p.sequenceShift});
END
$snowkey$`;
}
