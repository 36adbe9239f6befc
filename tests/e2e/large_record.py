#!/usr/bin/env python3
"""A legal TSN record of many actions, for the memory figures of replay and
annotate (docs/BENCHMARKS.md, "Large records").

    tests/e2e/large_record.py [--actions N] > big.tsn

The record opens with a short finkel game (entering, a rosette's extra
throw, a capture) and then passes: each further turn throws 0, which moves
nothing, so the record is legal however long it is. --actions counts every
action (default 1,000,000).
"""
import argparse
import sys

OPENING = [
    "1. L 4:0-4* 4:4-8* 1:8-9",
    "2. D 2:0-2",
    "3. L 0:-",
    "4. D 3:2-5",
    "5. L 2:0-2",
    "6. D 4:5-9x",
]
OPENING_ACTIONS = 8  # throws in the opening lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1_000_000)
    args = parser.parse_args()
    if args.actions < OPENING_ACTIONS:
        parser.error(f"--actions must be at least {OPENING_ACTIONS}")
    out = sys.stdout
    out.write('[TSN "1"]\n[Ruleset "finkel"]\n[Event "Large record"]\n\n')
    out.write("\n".join(OPENING) + "\n")
    turn = len(OPENING)
    lines = []
    for _ in range(args.actions - OPENING_ACTIONS):
        turn += 1
        lines.append(f"{turn}. {'L' if turn % 2 else 'D'} 0:-")
        if len(lines) == 10000:
            out.write("\n".join(lines) + "\n")
            lines = []
    if lines:
        out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
