/**
 * Rewrites `?` placeholders as PostgreSQL's `$1, $2, ...`, leaving `?` inside quoted strings,
 * quoted identifiers and comments alone, so one SQL text serves every dialect in tests.
 *
 * @example
 * toPgPlaceholders('SELECT * FROM t WHERE a = ? AND b = \'?\''); // 'SELECT * FROM t WHERE a = $1 AND b = \'?\''
 */
export function toPgPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = closingQuote(sql, i, c);
      out += sql.slice(i, end);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      const end = nl === -1 ? sql.length : nl;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close === -1 ? sql.length : close + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (c === '?') {
      out += `$${++n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index just past the quote that closes the one at `start` (a doubled quote escapes it). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}
