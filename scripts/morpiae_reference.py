#!/usr/bin/env python3
"""Independent reference for Morpiae (shared/rules/morpiae.md), used only to check the
engine: a deliberately simple implementation that stores the drawing as a set of
circles and a list of lines, and applies the spec's words literally (a circle is
crossed in direction d when it is an inner point of a line of d, or the meeting point
of two lines of d end to end; in 5D, when it lies on any line of d).

Usage:
  morpiae_reference.py verify tests/data/perft/morpiae.perft [max_count]
      recompute every perft count of the data file (up to max_count, default 200000)
  morpiae_reference.py games SEED N VARIANT
      play N random games to their end and print, per game, the moves and the final
      position string (the format of tests/data/morpiae_games.txt)
  morpiae_reference.py solitaire FILE
      replay a game written by `ugine morpion` (its variant option and position line)
      and print its length and the lines left; exit status 1 if a line is not legal
"""
import random
import sys

DIRS = [(1, 0), (0, 1), (1, 1), (1, -1)]
LETTERS = "HVDA"
CROSS_ROWS = ["...XXXX...", "...X..X...", "...X..X...", "XXXX..XXXX", "X........X",
              "X........X", "XXXX..XXXX", "...X..X...", "...X..X...", "...XXXX..."]
CROSS = {(x, 9 - r) for r, row in enumerate(CROSS_ROWS) for x, c in enumerate(row) if c == "X"}


class Pos:
    def __init__(self, variant, circles):
        self.variant = variant          # "5T" or "5D"
        self.circles = set(circles)
        self.base = set(circles)
        self.lines = []                 # (x, y, d, k) moves, in order
        self.owner = {}                 # point -> "r" / "g"
        self.side = "r"

    def line_points(self, mv):
        x, y, d, k = mv
        dx, dy = DIRS[d]
        return [(x + (i - k) * dx, y + (i - k) * dy) for i in range(5)]

    def crossed(self, p, d):
        for mv in self.lines:
            if mv[2] != d:
                continue
            pts = self.line_points(mv)
            if self.variant == "5D" and p in pts:
                return True
            if p in pts[1:4]:
                return True
        if self.variant == "5T":
            ends_first = any(mv[2] == d and self.line_points(mv)[0] == p for mv in self.lines)
            ends_last = any(mv[2] == d and self.line_points(mv)[4] == p for mv in self.lines)
            return ends_first and ends_last
        return False

    def moves(self):
        found = set()
        for (cx, cy) in self.circles:
            for d, (dx, dy) in enumerate(DIRS):
                for j in range(5):
                    sx, sy = cx - j * dx, cy - j * dy
                    pts = [(sx + i * dx, sy + i * dy) for i in range(5)]
                    empty = [i for i, p in enumerate(pts) if p not in self.circles]
                    if len(empty) != 1:
                        continue
                    if any(self.crossed(p, d) for p in pts if p in self.circles):
                        continue
                    k = empty[0]
                    found.add((pts[k][0], pts[k][1], d, k))
        return sorted(found)

    def play(self, mv):
        self.circles.add((mv[0], mv[1]))
        self.lines.append(mv)
        for p in self.line_points(mv):
            if p not in self.owner and all(self.crossed(p, d) for d in range(4)):
                self.owner[p] = self.side
        self.side = "g" if self.side == "r" else "r"

    def copy(self):
        c = Pos(self.variant, self.base)
        c.circles = set(self.circles)
        c.lines = list(self.lines)
        c.owner = dict(self.owner)
        c.side = self.side
        return c

    def fen(self):
        def pts(ps):
            return ";".join(f"{x},{y}" for x, y in sorted(ps)) or "-"
        if CROSS <= self.base:
            extra = self.base - CROSS
            circles = "cross" + (";" + pts(extra) if extra else "")
        else:
            circles = pts(self.base)
        lines = ";".join(mv_text(m) for m in self.lines) or "-"
        red = [p for p, o in self.owner.items() if o == "r"]
        green = [p for p, o in self.owner.items() if o == "g"]
        return f"{self.side} {circles} {lines} {pts(red)} {pts(green)}"


def mv_text(m):
    return f"{m[0]},{m[1]},{LETTERS[m[2]]},{m[3]}"


def parse_move(t):
    x, y, d, k = t.split(",")
    return (int(x), int(y), LETTERS.index(d.upper()), int(k))


def from_fen(s, variant):
    side, circles, lines, red, green = s.split()
    base = set()
    for part in circles.split(";"):
        if part == "cross":
            base |= CROSS
        elif part != "-":
            x, y = part.split(",")
            base.add((int(x), int(y)))
    p = Pos(variant, base)
    if lines != "-":
        for t in lines.split(";"):
            mv = parse_move(t)
            assert mv in p.moves(), f"line {t} not legal"
            p.circles.add((mv[0], mv[1]))
            p.lines.append(mv)
    for field, who in ((red, "r"), (green, "g")):
        if field != "-":
            for t in field.split(";"):
                x, y = t.split(",")
                p.owner[(int(x), int(y))] = who
    p.side = side
    return p


def perft(p, depth):
    if depth == 0:
        return 1
    ms = p.moves()
    if depth == 1:
        return len(ms)
    total = 0
    for m in ms:
        c = p.copy()
        c.play(m)
        total += perft(c, depth - 1)
    return total


def verify(path, cap):
    bad = 0
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        ident, options, position, counts = [f.strip() for f in line.split("|")]
        variant = "5D" if "5D" in options.upper() else "5T"
        p = from_fen("r cross - - -" if position == "startpos" else position, variant)
        for dc in counts.split():
            d, c = map(int, dc.split(":"))
            if c > cap:
                continue
            got = perft(p, d)
            ok = "ok" if got == c else "MISMATCH"
            bad += got != c
            print(f"{ident} {variant} depth {d}: file {c} reference {got} {ok}")
    return bad


def games(seed, n, variant):
    rng = random.Random(seed)
    for _ in range(n):
        p = Pos(variant, CROSS)
        while True:
            ms = p.moves()
            if not ms:
                break
            p.play(rng.choice(ms))
        print(f"{variant} | {' '.join(mv_text(m) for m in p.lines)} | {p.fen()}")


def solitaire(path):
    variant, moves = "5T", None
    for line in open(path):
        if line.startswith("setoption name Morpiae Variant value "):
            variant = line.split()[-1].upper()
        elif line.startswith("position startpos"):
            words = line.split()
            moves = words[3:] if len(words) > 2 and words[2] == "moves" else []
    if moves is None:
        print(f"{path}: no position line")
        return False
    p = Pos(variant, CROSS)
    for i, t in enumerate(moves):
        mv = parse_move(t)
        if mv not in p.moves():
            print(f"{path}: {variant} move {i + 1} ({t}) is not legal")
            return False
        p.play(mv)
    print(f"{path}: {variant}, {len(moves)} moves, all legal, {len(p.moves())} lines left")
    return True


if __name__ == "__main__":
    if sys.argv[1] == "verify":
        cap = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
        sys.exit(1 if verify(sys.argv[2], cap) else 0)
    elif sys.argv[1] == "games":
        games(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    elif sys.argv[1] == "solitaire":
        sys.exit(0 if solitaire(sys.argv[2]) else 1)
