#!/usr/bin/env python3
"""Independent reference for Mabula (shared/rules/mabula.md), used to cross-check the
engine: a plain 8x8 grid, pushes simulated one step at a time exactly as the rules word
them, no bitboards and no shared code with src/games/mabula.

Usage:
  scripts/mabula_reference.py [--max-count N]   check tests/data/perft/mabula.perft
  scripts/mabula_reference.py --count-setups    count the legal setups (40158)

For every entry of the perft file it recomputes the counts not above --max-count
(default 400000) and the outcome of finished positions, and prints OK or MISMATCH.
Options in the file (Mabula Scoring / Mabula Ties) only change outcomes, not perft.
"""

import itertools
import os
import sys

FILES = "abcdefgh"
CORNERS = {(0, 0), (7, 0), (0, 7), (7, 7)}  # (file, rank)
CYCLE = ([(f, 0) for f in range(1, 7)] + [(7, r) for r in range(1, 7)]
         + [(f, 7) for f in range(6, 0, -1)] + [(0, r) for r in range(6, 0, -1)])


def is_border(f, r):
    return (f in (0, 7) or r in (0, 7)) and (f, r) not in CORNERS


def inward(f, r):
    """Direction of the push from border square (f, r)."""
    if r == 0:
        return (0, 1)
    if r == 7:
        return (0, -1)
    if f == 0:
        return (1, 0)
    return (-1, 0)


def setup_ok(colours):
    """colours: 24 letters in CYCLE order."""
    if colours.count("B") != 12 or colours.count("W") != 12:
        return False
    n = len(colours)
    return not any(colours[i] == colours[(i + 1) % n] == colours[(i + 2) % n] for i in range(n))


def parse_position(text):
    """Returns (grid, side) where grid maps (f, r) -> 'B'/'W'."""
    fields = text.split()
    if fields[0] == "startpos":
        fields = ["BBWWBBWWBBWWBBWWBBWWBBWW"]
    setup = fields[0]
    assert setup_ok(setup), "bad setup " + setup
    if len(fields) == 1:
        return {sq: c for sq, c in zip(CYCLE, setup)}, "B"
    grid = {}
    for i, rank_text in enumerate(fields[1].split("/")):
        r = 7 - i
        f = 0
        for ch in rank_text:
            if ch.isdigit():
                f += int(ch)
            else:
                grid[(f, r)] = ch
                f += 1
        assert f == 8
    return grid, fields[2].upper()


def try_push(grid, start, k):
    """The grid after pushing the marble on `start` k steps, or None if a step breaks
    the rules (a marble would enter a border square or leave the board)."""
    g = dict(grid)
    df, dr = inward(*start)
    pos = start
    for _ in range(k):
        nxt = (pos[0] + df, pos[1] + dr)
        # The run of marbles directly ahead is pushed one square.
        run = []
        cell = nxt
        while cell in g:
            run.append(cell)
            cell = (cell[0] + df, cell[1] + dr)
        end = cell  # where the head of the run (or the mover) arrives
        if not (0 <= end[0] < 8 and 0 <= end[1] < 8) or is_border(*end):
            return None
        for sq in reversed(run):
            g[(sq[0] + df, sq[1] + dr)] = g.pop(sq)
        g[nxt] = g.pop(pos)
        pos = nxt
    if is_border(*pos):
        return None
    return g, pos


def pushes(grid, side):
    out = []
    for sq, c in grid.items():
        if c == side and is_border(*sq):
            for k in range(1, 7):
                res = try_push(grid, sq, k)
                if res is None:
                    break
                out.append(res[0])
    return out


def children(grid, side):
    """Positions after each legal move; [] when the game is over."""
    other = "W" if side == "B" else "B"
    mine = pushes(grid, side)
    if mine:
        return [(g, other) for g in mine]
    if pushes(grid, other):
        return [(grid, other)]  # pass
    return []


def perft(grid, side, depth):
    if depth == 0:
        return 1
    kids = children(grid, side)
    if depth == 1:
        return len(kids)
    return sum(perft(g, s, depth - 1) for g, s in kids)


def groups(grid, colour):
    seen, sizes = set(), []
    for sq, c in grid.items():
        if c != colour or sq in seen:
            continue
        stack, n = [sq], 0
        seen.add(sq)
        while stack:
            f, r = stack.pop()
            n += 1
            for nb in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
                if grid.get(nb) == colour and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        sizes.append(n)
    return sorted(sizes, reverse=True)


def result(grid, options):
    scoring = options.get("mabula scoring", "largest")
    ties = options.get("mabula ties", "draw")
    b, w = groups(grid, "B"), groups(grid, "W")
    if scoring == "product":
        sb, sw = 1, 1
        for x in b:
            sb *= x
        for x in w:
            sw *= x
    else:
        sb, sw = b[0], w[0]
    if sb == sw and ties == "break":
        sb, sw = b, w
    return "p1win" if sb > sw else "p2win" if sw > sb else "draw"


def count_setups():
    n = 0
    for black in itertools.combinations(range(24), 12):
        s = ["W"] * 24
        for i in black:
            s[i] = "B"
        n += setup_ok(s)
    return n


def main():
    if "--count-setups" in sys.argv:
        print(count_setups())
        return
    cap = 400000
    if "--max-count" in sys.argv:
        cap = int(sys.argv[sys.argv.index("--max-count") + 1])
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "tests", "data", "perft", "mabula.perft")
    bad = 0
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        ident, opts, position, counts = [x.strip() for x in line.split("|")]
        options = {}
        if opts != "-":
            for kv in opts.split(";"):
                k, v = kv.split("=")
                options[k.strip().lower()] = v.strip().lower()
        grid, side = parse_position(position)
        for dc in counts.split():
            d, c = (int(x) for x in dc.split(":"))
            if c > cap:
                continue
            got = perft(grid, side, d)
            status = "OK" if got == c else "MISMATCH"
            bad += got != c
            print(f"{status} {ident} depth {d}: file {c}, reference {got}")
        if not children(grid, side):
            print(f"INFO {ident}: over, result {result(grid, options)}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
