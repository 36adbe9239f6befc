#!/usr/bin/env python3
"""How far apart two Scribe tables (format version 1) of one ruleset are.

    bench/table_diff.py A.tbl B.tbl

Prints how many positions' values differ and by how many percent16 steps
at most (docs/analysis.md, "Table file format"). Two solves of one ruleset
on two threads, or from different starts, differ by one step in a fraction
of a percent of the positions (values within the tolerance of the one fixed
point that round to neighbouring steps).
"""

import array
import struct
import sys

CHUNK = 1 << 22  # positions compared at a time


def header(f, name):
    head = f.read(72)
    if len(head) < 72 or head[:8] != b"SCRIBETB":
        sys.exit(f"{name}: not a Scribe table")
    version, size, positions, digest = struct.unpack_from("<IIQ16s", head, 8)
    if version != 1:
        sys.exit(f"{name}: table format version {version}, this reads 1")
    f.seek(size)
    return positions, digest.decode("ascii", "replace")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: table_diff.py A.tbl B.tbl")
    a_name, b_name = sys.argv[1], sys.argv[2]
    with open(a_name, "rb") as a, open(b_name, "rb") as b:
        a_positions, a_digest = header(a, a_name)
        b_positions, b_digest = header(b, b_name)
        if (a_positions, a_digest) != (b_positions, b_digest):
            sys.exit(f"different rulesets: {a_digest} ({a_positions} positions) and "
                     f"{b_digest} ({b_positions} positions)")
        differ = worst = done = 0
        while done < a_positions:
            n = min(CHUNK, a_positions - done)
            x, y = array.array("H"), array.array("H")
            x.frombytes(a.read(2 * n))
            y.frombytes(b.read(2 * n))
            if len(x) != n or len(y) != n:
                sys.exit("a table ends early")
            if sys.byteorder == "big":
                x.byteswap()
                y.byteswap()
            if x != y:
                for p, q in zip(x, y):
                    if p != q:
                        differ += 1
                        worst = max(worst, abs(p - q))
            done += n
    print(f"{differ} of {a_positions} positions differ ({100.0 * differ / max(a_positions, 1):.3f}%), "
          f"by at most {worst} percent16 step{'s' if worst != 1 else ''}")


if __name__ == "__main__":
    main()
