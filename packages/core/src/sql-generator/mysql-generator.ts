import { leaseTableDdl } from '../lease/lease-table.js';
import type { GeneratorPlan, SqlScript } from './sql-generator.js';

const NOW_MS = 'FLOOR(UNIX_TIMESTAMP(SYSDATE(3)) * 1000)';

/**
 * MySQL/MariaDB: a stored function `snowkey_next_id()` and, for each table to fill, a BEFORE
 * INSERT trigger that sets a missing key (a column DEFAULT cannot call a stored function). A
 * call locks one node id's row (`FOR UPDATE SKIP LOCKED`, by primary key, starting at the slot of
 * the connection id) until its transaction ends; locking reads see the latest committed row
 * whatever the isolation level.
 */
export const mysqlGenerator = {
  install(p: GeneratorPlan): SqlScript {
    return script([
      leaseTableDdl('mysql', p.leaseTable),
      nodesTable(p),
      'DROP PROCEDURE IF EXISTS snowkey_register_nodes',
      register(p),
      'CALL snowkey_register_nodes()',
      'DROP PROCEDURE snowkey_register_nodes',
      'DROP FUNCTION IF EXISTS snowkey_next_id',
      nextId(p),
      ...p.fill.flatMap(({ table, column }) => [
        `DROP TRIGGER IF EXISTS ${triggerName(table, column)}`,
        `CREATE TRIGGER ${triggerName(table, column)} BEFORE INSERT ON ${table} FOR EACH ROW
IF NEW.${column} IS NULL OR NEW.${column} = 0 THEN SET NEW.${column} = snowkey_next_id(); END IF`,
      ]),
    ]);
  },
  uninstall(p: GeneratorPlan): SqlScript {
    return script([
      ...p.fill.map(({ table, column }) => `DROP TRIGGER IF EXISTS ${triggerName(table, column)}`),
      'DROP FUNCTION IF EXISTS snowkey_next_id',
      `UPDATE ${p.leaseTable} AS l JOIN ${p.nodesTable} AS n ON l.node_id = n.node_id
SET l.holder = NULL, l.version = l.version + 1, l.expires_at = 0,
  l.high_water = GREATEST(l.high_water, ${p.epoch} + n.last_unit * ${p.unitMs}), l.renewed_at = ${NOW_MS}
WHERE l.holder = '${p.holder}'`,
      `DROP TABLE IF EXISTS ${p.nodesTable}`,
    ]);
  },
};

/** One row per node id the database holds, with its last (unit, sequence). */
function nodesTable(p: GeneratorPlan): string {
  return `CREATE TABLE IF NOT EXISTS ${p.nodesTable} (
  slot INTEGER NOT NULL PRIMARY KEY,
  node_id INTEGER NOT NULL UNIQUE,
  last_unit BIGINT NOT NULL,
  seq INTEGER NOT NULL,
  node_part BIGINT NOT NULL
)`;
}

function triggerName(table: string, column: string): string {
  return `${table}_${column}_snowkey`.slice(0, 64);
}

/** For a driver, each statement as is; for the `mysql` client, between `DELIMITER //` lines. */
function script(statements: string[]): SqlScript {
  return { statements, text: `DELIMITER //\n${statements.join('\n//\n\n')}\n//\nDELIMITER ;\n` };
}

/** As on PostgreSQL (see postgres-generator.ts): highest free node ids first, one transaction. */
function register(p: GeneratorPlan): string {
  return `CREATE PROCEDURE snowkey_register_nodes() MODIFIES SQL DATA
BEGIN
  DECLARE now_ms BIGINT DEFAULT ${NOW_MS};
  DECLARE have INT;
  DECLARE candidate INT DEFAULT ${p.maxNodeId};
  DECLARE found_rows INT;
  DECLARE r_holder VARCHAR(255);
  DECLARE r_version BIGINT;
  DECLARE r_expires BIGINT;
  DECLARE r_ceiling BIGINT;
  DECLARE r_high BIGINT;
  DECLARE after_ms BIGINT;
  DECLARE changed INT;
  DECLARE message VARCHAR(255);
  DECLARE EXIT HANDLER FOR SQLEXCEPTION
  BEGIN
    ROLLBACK;
    DO RELEASE_LOCK('snowkey_sql_install');
    RESIGNAL;
  END;
  IF GET_LOCK('snowkey_sql_install', 30) <> 1 THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'snowkey: another install is running';
  END IF;
  START TRANSACTION;
  SELECT COUNT(*) INTO have FROM ${p.nodesTable} FOR UPDATE;
  WHILE have < ${p.nodes} AND candidate >= 0 DO
    SET changed = 0;
    SELECT COUNT(*) INTO found_rows FROM ${p.leaseTable} WHERE node_id = candidate;
    IF found_rows = 0 THEN
      SET after_ms = 0;
      INSERT IGNORE INTO ${p.leaseTable} (node_id, holder, version, expires_at, ceiling, high_water, renewed_at)
        VALUES (candidate, '${p.holder}', 1, ${p.forever}, ${p.forever}, 0, now_ms);
      SET changed = ROW_COUNT();
    ELSE
      SELECT holder, version, expires_at, ceiling, high_water INTO r_holder, r_version, r_expires, r_ceiling, r_high
        FROM ${p.leaseTable} WHERE node_id = candidate;
      IF r_holder IS NULL OR (r_expires < now_ms AND r_holder <> '${p.holder}') THEN
        SET after_ms = IF(r_holder IS NULL, r_high, GREATEST(r_ceiling, r_high));
        UPDATE ${p.leaseTable} SET holder = '${p.holder}', version = version + 1, expires_at = ${p.forever},
            ceiling = ${p.forever}, high_water = after_ms, renewed_at = now_ms
          WHERE node_id = candidate AND version = r_version;
        SET changed = ROW_COUNT();
      END IF;
    END IF;
    IF changed = 1 THEN
      INSERT INTO ${p.nodesTable} (slot, node_id, last_unit, seq, node_part)
        VALUES (have, candidate, GREATEST(-1, FLOOR((after_ms - ${p.epoch}) / ${p.unitMs})), ${p.maxSequence},
          candidate << ${p.nodeShift});
      SET have = have + 1;
    END IF;
    SET candidate = candidate - 1;
  END WHILE;
  IF have < ${p.nodes} THEN
    SET message = CONCAT('snowkey: only ', have, ' of the ${p.nodes} node ids asked for are free in ${p.leaseTable} (0..${p.maxNodeId}); nothing was installed');
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = message;
  END IF;
  COMMIT;
  DO RELEASE_LOCK('snowkey_sql_install');
END`;
}

/** The generator of postgres-generator.ts, slot by slot: a lookup by primary key locks that row only. */
function nextId(p: GeneratorPlan): string {
  const row = (lock: string) =>
    `SELECT node_id, last_unit, seq, node_part INTO v_node, v_last, v_seq, v_part FROM ${p.nodesTable}
      WHERE slot = v_slot ${lock}`;
  return `CREATE FUNCTION snowkey_next_id() RETURNS BIGINT NOT DETERMINISTIC MODIFIES SQL DATA
BEGIN
  DECLARE v_start INT DEFAULT CONNECTION_ID() % ${p.nodes};
  DECLARE v_try INT DEFAULT 0;
  DECLARE v_slot INT;
  DECLARE v_node INT DEFAULT NULL;
  DECLARE v_last BIGINT;
  DECLARE v_seq INT;
  DECLARE v_part BIGINT;
  DECLARE v_now BIGINT;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET v_node = NULL;
  WHILE v_node IS NULL AND v_try < ${p.nodes} DO
    SET v_slot = (v_start + v_try) % ${p.nodes};
    ${row('FOR UPDATE SKIP LOCKED')};
    SET v_try = v_try + 1;
  END WHILE;
  IF v_node IS NULL THEN
    -- every node id is in use by another transaction: wait for this connection's own
    SET v_slot = v_start;
    ${row('FOR UPDATE')};
  END IF;
  IF v_node IS NULL THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'snowkey_next_id(): no node id is registered in ${p.nodesTable}; run snowkey sql install';
  END IF;
  SET v_now = FLOOR((UNIX_TIMESTAMP(SYSDATE(3)) * 1000 - ${p.epoch}) / ${p.unitMs});
  IF v_now > v_last THEN
    SET v_seq = IF(v_seq + 1 < ${p.halfSequence}, v_seq + 1, 0);
    SET v_last = v_now;
  ELSEIF v_seq < ${p.maxSequence} THEN
    SET v_seq = v_seq + 1;
  ELSE
    SET v_last = v_last + 1;
    SET v_seq = 0;
  END IF;
  IF v_last > ${p.maxUnit} THEN
    SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'snowkey_next_id(): past the last unit of the layout';
  END IF;
  UPDATE ${p.nodesTable} SET last_unit = v_last, seq = v_seq WHERE node_id = v_node;
  RETURN (v_last << ${p.timestampShift}) | v_part | (v_seq << ${p.sequenceShift});
END`;
}
