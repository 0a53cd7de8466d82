#!/usr/bin/env python3
"""Independent reference implementation of Nine Men's Morris (ugine cross-check).

Written from the project's rule text only (shared/rules/morris.md and
shared/rules/README.md), not from the Rust engine, so that perft counts from the
two can be compared.  It aims to be plainly correct, not fast.

Rules implemented
-----------------
* Seed rules (DEFAULT): no flying; a placement or step that closes a mill containing
  the man just placed/moved removes one enemy man that is not in a mill; if every
  enemy man is in a mill (or the enemy has no man on the board), nothing is removed
  and the move is written without the ``x`` part.
* Standard rules (``--standard`` / ``Morris Rules=standard``): a player with exactly
  three men on the board and none in hand may fly to any empty point; if every enemy
  man is in a mill, any enemy man may be removed.
* A player whose hand is not empty places; otherwise moves.
* The game is over (no legal moves) when
    1. a side has two or fewer men on board plus in hand: that side loses (if both
       sides do, which the rules leave open and play cannot reach, the side to move
       is taken to lose; the engine instead always lets White lose);
    2. the side to move has no placement/step: it loses;
    3. the position (men, hands, side to move) occurs for the third time: draw
       (the position the search starts from counts as the first occurrence);
    4. the quiet-ply counter (plies since the last placement or capture) is >= 100:
       draw.  In play the counter only passes 1 once both hands are empty; a position
       string may give a larger count with men in hand, and that is drawn too.
  A win takes precedence over a draw (the checks run in the order above).

Position string
---------------
``<ranks> <w|b> <white hand> <black hand> <quiet plies>``; the ranks run from rank 7
down to rank 1, separated by ``/``, each listing its points left to right
(7: a7 d7 g7; 6: b6 d6 f6; 5: c5 d5 e5; 4: a4 b4 c4 e4 f4 g4; 3: c3 d3 e3;
2: b2 d2 f2; 1: a1 d1 g1) as ``W``, ``B`` or a digit = that many empty points.
``startpos`` = ``3/3/3/6/3/3/3 w 9 9 0``.

Move notation: placement ``d6`` / ``d6xa1``; step (or flight) ``a4-a7`` / ``a4-a7xd2``.

Usage
-----
    python3 scripts/morris_reference.py perft-file tests/data/perft/morris.perft [--max-count N]
        Checks every ``depth:count`` of the data file whose count is <= N
        (default 2,000,000); one line per check; exit status 1 on any mismatch.
        Data file lines: ``id | options | position | depth:count ...``; ``#`` starts a
        comment; options are ``-`` or ``Morris Rules=standard``.
    python3 scripts/morris_reference.py divide "<position or startpos>" <depth> [--standard]
        Per-move perft counts (``move: count``, sorted by move text) and the total.
    python3 scripts/morris_reference.py moves "<position or startpos>" [--standard]
        The legal moves, sorted, or the result (p1win / p2win / draw) if the game is over.
"""

import sys

# ---------------------------------------------------------------------------
# Board geometry
# ---------------------------------------------------------------------------

# Points in position-string order: rank 7 down to rank 1, left to right.
RANK_POINTS = [
    ["a7", "d7", "g7"],
    ["b6", "d6", "f6"],
    ["c5", "d5", "e5"],
    ["a4", "b4", "c4", "e4", "f4", "g4"],
    ["c3", "d3", "e3"],
    ["b2", "d2", "f2"],
    ["a1", "d1", "g1"],
]
POINTS = [p for rank in RANK_POINTS for p in rank]
assert len(POINTS) == 24 and len(set(POINTS)) == 24

# The 32 lines of the board, copied from the rules.
LINES = [
    ("a1", "d1"), ("d1", "g1"), ("g1", "g4"), ("g4", "g7"),
    ("g7", "d7"), ("d7", "a7"), ("a7", "a4"), ("a4", "a1"),
    ("b2", "d2"), ("d2", "f2"), ("f2", "f4"), ("f4", "f6"),
    ("f6", "d6"), ("d6", "b6"), ("b6", "b4"), ("b4", "b2"),
    ("c3", "d3"), ("d3", "e3"), ("e3", "e4"), ("e4", "e5"),
    ("e5", "d5"), ("d5", "c5"), ("c5", "c4"), ("c4", "c3"),
    ("a4", "b4"), ("b4", "c4"), ("e4", "f4"), ("f4", "g4"),
    ("d1", "d2"), ("d2", "d3"), ("d5", "d6"), ("d6", "d7"),
]
assert len(LINES) == 32

NEIGHBOURS = {p: set() for p in POINTS}
for x, y in LINES:
    NEIGHBOURS[x].add(y)
    NEIGHBOURS[y].add(x)

# The 16 mills, copied from the rules.
MILLS = [
    ("a1", "d1", "g1"), ("b2", "d2", "f2"), ("c3", "d3", "e3"), ("a4", "b4", "c4"),
    ("e4", "f4", "g4"), ("c5", "d5", "e5"), ("b6", "d6", "f6"), ("a7", "d7", "g7"),
    ("a1", "a4", "a7"), ("b2", "b4", "b6"), ("c3", "c4", "c5"), ("d1", "d2", "d3"),
    ("d5", "d6", "d7"), ("e3", "e4", "e5"), ("f2", "f4", "f6"), ("g1", "g4", "g7"),
]
assert len(MILLS) == 16
# Sanity: every mill is two lines of the board.
for _m in MILLS:
    assert sum(1 for a in _m for b in _m if b in NEIGHBOURS[a]) == 4, _m
for _p in POINTS:
    assert sum(1 for _m in MILLS if _p in _m) == 2, _p

WHITE, BLACK = "W", "B"
STARTPOS = "3/3/3/6/3/3/3 w 9 9 0"
QUIET_LIMIT = 100
REPETITIONS = 3


def other(colour):
    return BLACK if colour == WHITE else WHITE


# ---------------------------------------------------------------------------
# Position
# ---------------------------------------------------------------------------

class Position:
    """Men on points, men in hand, side to move, quiet plies, and the history of
    earlier positions (for the threefold-repetition rule)."""

    def __init__(self, board, hand, side, quiet, standard, history=None):
        self.board = board          # dict point -> "W" / "B" / None
        self.hand = hand            # dict colour -> men in hand
        self.side = side            # colour to move
        self.quiet = quiet          # plies since the last placement or capture
        self.standard = standard    # True: standard rules; False: seed rules
        # history: dict key -> number of occurrences so far, including this position.
        if history is None:
            history = {self.key(): 1}
        self.history = history

    def key(self):
        return (tuple(self.board[p] for p in POINTS),
                self.hand[WHITE], self.hand[BLACK], self.side)

    # -- reading ------------------------------------------------------------

    @staticmethod
    def parse(text, standard=False):
        text = text.strip()
        if text == "startpos":
            text = STARTPOS
        fields = text.split()
        if len(fields) != 5:
            raise ValueError("position needs 5 fields: %r" % text)
        ranks_text, side_text, wh, bh, quiet = fields
        ranks = ranks_text.split("/")
        if len(ranks) != 7:
            raise ValueError("position needs 7 ranks: %r" % ranks_text)
        board = {}
        for rank_points, rank_text in zip(RANK_POINTS, ranks):
            cells = []
            for ch in rank_text:
                if ch in "WB":
                    cells.append(ch)
                elif ch.isdigit():
                    cells.extend([None] * int(ch))
                else:
                    raise ValueError("bad character %r in rank %r" % (ch, rank_text))
            if len(cells) != len(rank_points):
                raise ValueError("rank %r has %d points, needs %d"
                                 % (rank_text, len(cells), len(rank_points)))
            for p, c in zip(rank_points, cells):
                board[p] = c
        if side_text not in ("w", "b"):
            raise ValueError("side must be w or b: %r" % side_text)
        side = WHITE if side_text == "w" else BLACK
        hand = {WHITE: int(wh), BLACK: int(bh)}
        return Position(board, hand, side, int(quiet), standard)

    def fen(self):
        ranks = []
        for rank_points in RANK_POINTS:
            out, empty = "", 0
            for p in rank_points:
                if self.board[p] is None:
                    empty += 1
                else:
                    if empty:
                        out += str(empty)
                        empty = 0
                    out += self.board[p]
            if empty:
                out += str(empty)
            ranks.append(out)
        return "%s %s %d %d %d" % ("/".join(ranks), self.side.lower(),
                                   self.hand[WHITE], self.hand[BLACK], self.quiet)

    # -- helpers ------------------------------------------------------------

    def men_on_board(self, colour):
        return [p for p in POINTS if self.board[p] == colour]

    def total_men(self, colour):
        return len(self.men_on_board(colour)) + self.hand[colour]

    def in_mill(self, board, point):
        """Whether the man on `point` is part of a mill on `board`."""
        colour = board[point]
        return colour is not None and any(
            point in mill and all(board[q] == colour for q in mill) for mill in MILLS)

    def removable(self, board, enemy):
        """Enemy men that may be removed after closing a mill on `board`."""
        enemy_men = [p for p in POINTS if board[p] == enemy]
        free = [p for p in enemy_men if not self.in_mill(board, p)]
        if free:
            return free
        if self.standard:
            return enemy_men        # all in mills: any of them may be taken
        return []                   # seed rule 8: nothing is removed

    # -- moves --------------------------------------------------------------

    def basic_moves(self):
        """(from, to) pairs: from is None for a placement."""
        me = self.side
        empty = [p for p in POINTS if self.board[p] is None]
        if self.hand[me] > 0:
            return [(None, to) for to in empty]
        mine = self.men_on_board(me)
        flying = self.standard and len(mine) == 3
        result = []
        for frm in mine:
            targets = empty if flying else [q for q in NEIGHBOURS[frm] if self.board[q] is None]
            for to in targets:
                result.append((frm, to))
        return result

    def outcome(self):
        """None while the game goes on, else "p1win", "p2win" or "draw"."""
        me, you = self.side, other(self.side)
        win_for = {WHITE: "p1win", BLACK: "p2win"}
        if self.total_men(me) <= 2:
            return win_for[you]
        if self.total_men(you) <= 2:
            return win_for[me]
        if not self.basic_moves():
            return win_for[you]
        if self.history.get(self.key(), 0) >= REPETITIONS:
            return "draw"
        if self.quiet >= QUIET_LIMIT:
            return "draw"
        return None

    def legal_moves(self):
        """List of (from, to, capture) triples; empty when the game is over."""
        if self.outcome() is not None:
            return []
        me, you = self.side, other(self.side)
        moves = []
        for frm, to in self.basic_moves():
            board = dict(self.board)
            if frm is not None:
                board[frm] = None
            board[to] = me
            closes_mill = any(to in mill and all(board[q] == me for q in mill)
                              for mill in MILLS)
            victims = self.removable(board, you) if closes_mill else []
            if victims:
                for v in victims:
                    moves.append((frm, to, v))
            else:
                moves.append((frm, to, None))
        return moves

    def play(self, move):
        """The position after `move` (a new object; history is shared and extended)."""
        frm, to, cap = move
        me, you = self.side, other(self.side)
        board = dict(self.board)
        hand = dict(self.hand)
        if frm is None:
            hand[me] -= 1
        else:
            board[frm] = None
        board[to] = me
        if cap is not None:
            board[cap] = None
        quiet = 0 if (frm is None or cap is not None) else self.quiet + 1
        child = Position(board, hand, you, quiet, self.standard, history=self.history)
        return child


def move_text(move):
    frm, to, cap = move
    s = to if frm is None else "%s-%s" % (frm, to)
    if cap is not None:
        s += "x" + cap
    return s


# ---------------------------------------------------------------------------
# Perft
# ---------------------------------------------------------------------------

def perft(pos, depth):
    if depth == 0:
        return 1
    moves = pos.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        total += perft_child(pos, m, depth - 1)
    return total


def perft_child(pos, move, depth):
    """Perft of the position after `move`, recording it in the shared history."""
    child = pos.play(move)
    k = child.key()
    pos.history[k] = pos.history.get(k, 0) + 1
    try:
        return perft(child, depth)
    finally:
        pos.history[k] -= 1
        if pos.history[k] == 0:
            del pos.history[k]


def divide(pos, depth):
    return sorted((move_text(m), perft_child(pos, m, depth - 1))
                  for m in pos.legal_moves())


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def parse_options(text):
    text = text.strip()
    if text in ("-", ""):
        return False
    if text == "Morris Rules=standard":
        return True
    if text == "Morris Rules=seed":
        return False
    raise ValueError("unknown options %r" % text)


def cmd_perft_file(path, max_count):
    bad = 0
    checked = 0
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, opts, fen, counts = [x.strip() for x in line.split("|")]
            standard = parse_options(opts)
            for item in counts.split():
                d, n = item.split(":")
                d, n = int(d), int(n)
                if n > max_count:
                    print("%-20s depth %d: skipped (expected %d > max-count)" % (name, d, n))
                    continue
                got = perft(Position.parse(fen, standard), d)
                checked += 1
                if got == n:
                    print("%-20s depth %d: ok %d" % (name, d, n))
                else:
                    bad += 1
                    print("%-20s depth %d: MISMATCH expected %d, reference %d"
                          % (name, d, n, got))
                sys.stdout.flush()
    print("%d checks, %d mismatches" % (checked, bad))
    return 1 if bad else 0


def main(argv):
    args = [a for a in argv if a != "--standard"]
    standard = "--standard" in argv
    if len(args) >= 2 and args[0] == "perft-file":
        max_count = 2_000_000
        if "--max-count" in args:
            i = args.index("--max-count")
            max_count = int(args[i + 1])
            del args[i:i + 2]
        return cmd_perft_file(args[1], max_count)
    if len(args) == 3 and args[0] == "divide":
        pos = Position.parse(args[1], standard)
        depth = int(args[2])
        if depth < 1:
            print("total: 1")
            return 0
        total = 0
        for text, n in divide(pos, depth):
            print("%s: %d" % (text, n))
            total += n
        print("total: %d" % total)
        return 0
    if len(args) == 2 and args[0] == "moves":
        pos = Position.parse(args[1], standard)
        result = pos.outcome()
        moves = sorted(move_text(m) for m in pos.legal_moves())
        for m in moves:
            print(m)
        print("%d moves" % len(moves))
        if result is not None:
            print("result: %s" % result)
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
