#!/usr/bin/env python3
"""An independent reader of snowkey ids and public ids, written from packages/core/SPEC.md alone
(standard library only), run by test/spec/vectors.test.ts against @snowkey/core's vectors.json.

    python3 test/spec/decode.py packages/core/vectors.json

Prints one JSON line of counts; exits 1 after printing every mismatch.
"""

import json
import sys

MASK64 = (1 << 64) - 1
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
DIGIT = {c: i for i, c in enumerate(ALPHABET)}
DOMAIN = b"snowkey/public-id/v2"

problems = []


def expect(what, got, want):
    if got != want:
        problems.append(f"{what}: got {got!r}, want {want!r}")


# --- Layouts (SPEC 1-3) -------------------------------------------------------------------------


def positions(layout):
    """Shifts of the timestamp, the sequence and each node field, from the widths and the order."""
    node_bits = sum(f["bits"] for f in layout["nodeFields"])
    seq_bits = layout["sequenceBits"]
    ts_shift = node_bits + seq_bits
    seq_shift = 0 if layout["order"] == "node-sequence" else node_bits
    cursor = seq_bits + node_bits if layout["order"] == "node-sequence" else node_bits
    fields = []
    for f in layout["nodeFields"]:
        cursor -= f["bits"]
        fields.append((f["name"], f["bits"], cursor))
    return ts_shift, seq_shift, fields


def read_id(layout, v):
    ts_shift, seq_shift, fields = positions(layout)
    if v < 0 or v >> layout["totalBits"]:
        raise ValueError(f"{v} is not an id of layout {layout['name']}")
    ticks = v >> ts_shift
    return {
        "timestamp": layout["epoch"] + ticks * layout["timeUnitMs"],
        "timeUnits": ticks,
        "sequence": (v >> seq_shift) & ((1 << layout["sequenceBits"]) - 1),
        "nodeFields": {name: (v >> shift) & ((1 << bits) - 1) for name, bits, shift in fields},
    }


def id_range(layout, start, end):
    ts_shift = positions(layout)[0]
    unit = layout["timeUnitMs"]
    lo = ((start - layout["epoch"]) // unit) << ts_shift
    hi = ((((end - layout["epoch"]) // unit) + 1) << ts_shift) - 1
    return lo, hi


# --- The generator (SPEC 4) ---------------------------------------------------------------------


class Refused(Exception):
    pass


class Generator:
    """SPEC 4's algorithm; a step that would wait for the clock is an error (vectors never wait)."""

    def __init__(self, layout, node_fields, options, created_at):
        ts_shift, seq_shift, fields = positions(layout)
        self.layout, self.ts_shift, self.seq_shift = layout, ts_shift, seq_shift
        self.node_part = sum(node_fields[name] << shift for name, _, shift in fields)
        self.max_seq = (1 << layout["sequenceBits"]) - 1
        self.half = 1 << (layout["sequenceBits"] - 1)
        unit = layout["timeUnitMs"]
        self.lead = options["maxBorrowMs"] // unit if options["sequenceOverflow"] == "borrow" else 0
        self.tolerance = -(-options["clockRollbackToleranceMs"] // unit)
        self.balance = options["balanceModulo"]
        c = self.unit_of(created_at)
        self.last = self.floor = c + self.lead
        self.seq = self.max_seq
        self.high = c

    def unit_of(self, ms):
        return (ms - self.layout["epoch"]) // self.layout["timeUnitMs"]

    def compose(self, unit, s):
        return (unit << self.ts_shift) | self.node_part | (s << self.seq_shift)

    def start(self, unit):
        if unit > (1 << self.layout["timestampBits"]) - 1:
            raise Refused("TimestampOutOfRangeError")
        self.seq = self.seq + 1 if self.balance and self.seq + 1 < self.half else 0
        self.last = unit
        return self.compose(unit, self.seq)

    def next_id(self, reading):
        now = self.unit_of(reading)
        if now > self.last:
            self.high = now
            return self.start(now)
        if self.high - now > self.tolerance:
            raise Refused("ClockMovedBackwardsError")
        if self.seq < self.max_seq:
            self.seq += 1
            return self.compose(self.last, self.seq)
        want = self.last + 1
        if want == self.floor + 1 or want - now <= self.lead:
            return self.start(want)
        if want - self.lead - now > self.tolerance + 1:
            raise Refused("ClockMovedBackwardsError")
        raise Refused("a wait for the clock")


# --- SipHash-2-4 (SPEC 7.2) ---------------------------------------------------------------------


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & MASK64


def siphash24(key, message):
    k0 = int.from_bytes(key[0:8], "little")
    k1 = int.from_bytes(key[8:16], "little")
    v0 = k0 ^ 0x736F6D6570736575
    v1 = k1 ^ 0x646F72616E646F6D
    v2 = k0 ^ 0x6C7967656E657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(n):
        nonlocal v0, v1, v2, v3
        for _ in range(n):
            v0 = (v0 + v1) & MASK64
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & MASK64
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & MASK64
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & MASK64
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)

    full = len(message) - len(message) % 8
    blocks = [int.from_bytes(message[i : i + 8], "little") for i in range(0, full, 8)]
    last = bytearray(message[full:]) + bytes(7 - len(message) % 8) + bytes([len(message) & 0xFF])
    blocks.append(int.from_bytes(last, "little"))
    for m in blocks:
        v3 ^= m
        rounds(2)
        v0 ^= m
    v2 ^= 0xFF
    rounds(4)
    return v0 ^ v1 ^ v2 ^ v3


# --- Public ids (SPEC 7) ------------------------------------------------------------------------


def derive(master, entity):
    tweak = entity.encode("utf-8")

    def prf(i, j):
        return siphash24(master, DOMAIN + bytes([0, i, j]) + tweak).to_bytes(8, "little")

    rounds = [prf(r, 0) + prf(r, 1) for r in range(10)]
    return rounds, prf(0xFE, 0) + prf(0xFE, 1)


def feistel(x, rounds, inverse=False):
    def f(r, w):
        return siphash24(rounds[r], w.to_bytes(4, "little")) & 0xFFFFFFFF

    a, b = x >> 32, x & 0xFFFFFFFF
    if not inverse:
        for r in range(0, 10, 2):
            a ^= f(r, b) & 0x7FFFFFFF
            b ^= f(r + 1, a)
    else:
        for r in range(8, -1, -2):
            b ^= f(r + 1, a)
            a ^= f(r, b) & 0x7FFFFFFF
    return (a << 32) | b


def keyed_check(check_key, p):
    return (siphash24(check_key, p.to_bytes(8, "little")) & 0xFFFFFFFF) % 61


def typo_check(first13):
    total = sum((i + 2) * DIGIT[c] for i, c in enumerate(first13))
    return (61 - total % 61) % 61


def encode_public_id(x, key_id, keys):
    rounds, check_key = keys
    p = feistel(x, rounds)
    digits, rest = [], p
    for _ in range(11):
        rest, d = divmod(rest, 61)
        digits.append(ALPHABET[d])
    body = ALPHABET[key_id] + "".join(reversed(digits)) + ALPHABET[keyed_check(check_key, p)]
    return body + ALPHABET[typo_check(body)]


def decode_public_id(text, keys_by_id):
    """The key behind `text`, or the fault (SPEC 7.5), checked in the spec's order."""
    if len(text) != 14:
        return "length"
    if any(c not in DIGIT for c in text):
        return "character"
    if (sum((i + 2) * DIGIT[c] for i, c in enumerate(text[:13])) + DIGIT[text[13]]) % 61:
        return "check"
    p = 0
    for c in text[1:12]:
        p = p * 61 + DIGIT[c]
    if p >= 1 << 63:
        return "range"
    keys = keys_by_id.get(DIGIT[text[0]])
    if keys is None:
        return "key"
    rounds, check_key = keys
    if keyed_check(check_key, p) != DIGIT[text[12]]:
        return "foreign"
    x = feistel(p, rounds, inverse=True)
    return "range" if x == 0 else x


# --- The vectors --------------------------------------------------------------------------------


def main(path):
    with open(path, encoding="utf-8") as fh:
        vectors = json.load(fh)
    layouts = {layout["name"]: layout for layout in vectors["layouts"]}
    counts = {"layouts": 0, "ids": 0, "timeRanges": 0, "generatorSteps": 0, "generatorIds": 0, "sipHash": 0, "publicIds": 0, "invalidPublicIds": 0}

    for layout in vectors["layouts"]:
        ts_shift, seq_shift, fields = positions(layout)
        total = layout["timestampBits"] + sum(f["bits"] for f in layout["nodeFields"]) + layout["sequenceBits"]
        name = layout["name"]
        expect(f"layout {name} totalBits", total, layout["totalBits"])
        expect(f"layout {name} timestampShift", ts_shift, layout["timestampShift"])
        expect(f"layout {name} sequenceShift", seq_shift, layout["sequenceShift"])
        expect(f"layout {name} node shifts", [s for _, _, s in fields], [f["shift"] for f in layout["nodeFields"]])
        last = layout["epoch"] + (1 << layout["timestampBits"]) * layout["timeUnitMs"] - 1
        expect(f"layout {name} last instant", last, layout["lastInstant"])
        counts["layouts"] += 1

    for v in vectors["ids"]:
        got = read_id(layouts[v["layout"]], int(v["id"]))
        want = {k: v[k] for k in ("timestamp", "timeUnits", "sequence", "nodeFields")}
        expect(f"id {v['id']} of {v['layout']}", got, want)
        expect(f"id {v['id']} hex", f"0x{int(v['id']):016x}", v["hex"])
        counts["ids"] += 1

    for r in vectors["timeRanges"]:
        got = id_range(layouts[r["layout"]], r["from"], r["to"])
        expect(f"time range {r['fromIso']}..{r['toIso']} of {r['layout']}", got, (int(r["minId"]), int(r["maxId"])))
        counts["timeRanges"] += 1

    for t in vectors["generator"]:
        layout = layouts[t["layout"]]
        gen = Generator(layout, t["nodeFields"], t["options"], t["createdAt"])
        previous = -1
        for step in t["steps"]:
            try:
                replayed = str(gen.next_id(step["clock"]))
            except Refused as refused:
                replayed = f"refused: {refused}"
            want = step["id"] if "id" in step else f"refused: {step['error']}"
            expect(f"trace '{t['title']}' at clock {step['clock']}", replayed, want)
            counts["generatorSteps"] += 1
            if "id" not in step:
                continue
            v = int(step["id"])
            got = read_id(layout, v)
            expect(f"trace '{t['title']}' id {v} timestamp", got["timestamp"], step["timestamp"])
            expect(f"trace '{t['title']}' id {v} sequence", got["sequence"], step["sequence"])
            expect(f"trace '{t['title']}' id {v} node fields", got["nodeFields"], t["nodeFields"])
            if v <= previous:
                problems.append(f"trace '{t['title']}': id {v} is not above {previous}")
            previous = v
            counts["generatorIds"] += 1

    pub = vectors["publicIds"]
    expect("public-id alphabet", pub["alphabet"], ALPHABET)
    # The SipHash paper's own example (Aumasson and Bernstein, appendix A), then the vectors.
    expect("SipHash-2-4 of the paper's example", siphash24(bytes(range(16)), bytes(range(15))), 0xA129CA6149BE45E5)
    for v in pub["sipHash"]:
        got = siphash24(bytes(range(16)), bytes.fromhex(v["message"]))
        expect(f"SipHash-2-4 of {v['message'] or 'the empty message'}", f"0x{got:016x}", v["hash"])
        counts["sipHash"] += 1
    master = bytes.fromhex(pub["key"])
    derived = {}
    for entity, want in pub["derivedKeys"].items():
        rounds, check_key = derive(master, entity)
        derived[entity] = (rounds, check_key)
        expect(f"round keys of {entity!r}", [k.hex() for k in rounds], want["rounds"])
        expect(f"check key of {entity!r}", check_key.hex(), want["check"])

    for v in pub["valid"]:
        keys = derived[v["entity"]]
        text = v["publicId"]
        x = int(v["id"])
        where = f"public id {text} ({v['entity']}, key id {v['keyId']})"
        expect(f"{where} typo check", typo_check(text[:13]), DIGIT[text[13]])
        expect(f"{where} typo check digit", DIGIT[text[13]], v["typoCheck"])
        expect(f"{where} keyed check", keyed_check(keys[1], int(v["permuted"])), v["keyedCheck"])
        expect(f"{where} permuted", feistel(x, keys[0]), int(v["permuted"]))
        expect(f"{where} decoded", decode_public_id(text, {v["keyId"]: keys}), x)
        expect(f"{where} encoded", encode_public_id(x, v["keyId"], keys), text)
        counts["publicIds"] += 1

    for v in pub["invalid"]:
        got = decode_public_id(v["publicId"], {0: derived[v["entity"]]})
        expect(f"invalid public id {v['publicId']} ({v['what']})", got, v["fault"])
        counts["invalidPublicIds"] += 1

    print(json.dumps(counts))
    for p in problems:
        print(f"mismatch: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "packages/core/vectors.json"))
