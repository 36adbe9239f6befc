#!/usr/bin/env python3
"""How often a run called the record path's functions, from a callgrind
output file: how many times the text was parsed, each record refereed, its
start position worked out.

    valgrind --tool=callgrind --callgrind-out-file=F scribe annotate G
    bench/call_counts.py F
"""
import collections
import re
import sys

FUNCTIONS = r"scribe::(Referee|ParseJsonRecords|ReadTsn|ReadTsnEach|ReadRgn|ReadRoyalUrJson|StartOfRecord)\("

names, calls, callee = {}, collections.Counter(), None
with open(sys.argv[1]) as f:
    for line in f:
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            kind, index, name = m.groups()
            if name:
                names[index] = name.strip()
            callee = index if kind == "cfn" else None
            continue
        m = re.match(r"calls=(\d+)", line)
        if m and callee:
            calls[callee] += int(m.group(1))
counts = collections.Counter()
for index, n in calls.items():
    m = re.match(FUNCTIONS, names.get(index, ""))
    if m:
        counts[m.group(1)] += n
print(", ".join(f"{name} {counts[name]}" for name in sorted(counts)))
