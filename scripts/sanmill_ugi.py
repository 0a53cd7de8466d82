#!/usr/bin/env python3
"""A UGI front for Sanmill's Nine Men's Morris engine, so `ugine match` can play it.

Sanmill (github.com/calcitem/Sanmill) ships its engine as `tgf` (crate `tgf-cli`),
speaking UCI with the standard rules by default. Its notation differs from ugine's in
one way: a removal is its own action (`d6`, then `xa1`, by the same player), where
ugine writes one move `d6xa1`. This script translates both ways:

- `position startpos moves … d6xa1 …` becomes `position startpos moves … d6 xa1 …`;
- after `bestmove d6` (Sanmill prints no principal variation), the script checks
  whether `d6` closes a mill on the board it keeps; if so a second search (`go movetime
  REMOVAL_MS` on the position after `d6`) asks Sanmill which man it removes, and its
  `bestmove xa1` is joined to the move. So Sanmill has up to REMOVAL_MS more than its
  limit on the moves that close a mill.

Only the standard rules (`Morris Rules=standard`) are played; other `Morris …` options
are refused with `info string error: …`. Sanmill's own options pass through
(`setoption name SkillLevel value 30`). Positions must start from `startpos`.

Sanmill has no `query gameover|result`. With `--ugine PATH` the script answers them
with that ugine's standard rules (the referee's own, so they never disagree); without
it, a query gets `info string error: …` and the runner records a disagreement (its
result stands either way).

    build:  cargo build --release -p tgf-cli        (in a Sanmill checkout)
    use:    ugine match --game morris --option "Morris Rules=standard" \\
              --engine "name=sanmill cmd=scripts/sanmill_ugi.py arg=--ugine arg=ugine \\
                        arg=/path/to/tgf option.SkillLevel=30" --engine "name=ugine cmd=ugine" …
"""

import subprocess
import sys
import threading

# Milliseconds of the second search that asks for the removal after a mill.
REMOVAL_MS = 50
# Milliseconds before a movetime's end at which the script stops Sanmill's search (its
# reply and the pipes take a few).
STOP_EARLY_MS = 10

# The sixteen mills of the board without diagonals.
MILLS = [
    line.split()
    for line in """a7 d7 g7, b6 d6 f6, c5 d5 e5, a4 b4 c4, e4 f4 g4, c3 d3 e3, b2 d2 f2,
    a1 d1 g1, a1 a4 a7, b2 b4 b6, c3 c4 c5, d1 d2 d3, d5 d6 d7, e3 e4 e5, f2 f4 f6,
    g1 g4 g7""".split(",")
]


def closes_mill(board, mover, move):
    """Whether `mover`'s placement or step `move` (no removal) closes a mill on `board`
    (point -> player), the board before the move."""
    origin, _, target = move.rpartition("-")
    after = dict(board)
    after.pop(origin, None)
    after[target] = mover
    return any(target in m and all(after.get(p) == mover for p in m) for m in MILLS)


def play(board, mover, move):
    """`board` after `mover`'s ugine move (`d6`, `a4-a7`, `d6xa1`)."""
    head, _, removed = move.partition("x")
    origin, _, target = head.rpartition("-")
    board.pop(origin, None)
    board[target] = mover
    board.pop(removed, None)


def to_sanmill(move):
    """ugine's `d6xa1` / `a4-a7xd2` as Sanmill's actions `d6 xa1` / `a4-a7 xd2`."""
    head, sep, removed = move.partition("x")
    return [head, "x" + removed] if sep else [head]


def to_ugine_go(tokens):
    """UGI's `go` words with Sanmill's clock names (White, the first player, is p1)."""
    names = {"p1time": "wtime", "p2time": "btime", "p1inc": "winc", "p2inc": "binc"}
    return ["go"] + [names.get(t, t) for t in tokens]


class Sanmill:
    def __init__(self, argv):
        self.proc = subprocess.Popen(
            argv + ["uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        # The stop timer writes from another thread.
        self.lock = threading.Lock()

    def send(self, line):
        with self.lock:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()

    def until(self, word):
        """Reads up to the first line that starts with `word`."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("sanmill_ugi: the engine exited")
            if line.startswith(word):
                return

    def search(self, moves, go):
        """Sanmill's best action. Sanmill overruns `go movetime T` (about 500 ms for
        `movetime 200` in the middle game), but answers `stop` at once, so under a
        movetime the script sends `stop` itself after T − STOP_EARLY_MS."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(" ".join(go))
        timer = None
        if "movetime" in go[:-1]:
            ms = int(go[go.index("movetime") + 1])
            timer = threading.Timer(max(ms - STOP_EARLY_MS, 1) / 1000, self.send, ["stop"])
            timer.start()
        try:
            return self.best_action()
        finally:
            if timer:
                timer.cancel()

    def best_action(self):
        # Sanmill ends its search with `info … bestmove d6` on one line.
        words = self.until_word("bestmove")
        at = words.index("bestmove")
        return words[at + 1] if len(words) > at + 1 else "(none)"

    def until_word(self, word):
        """The words of the first line that contains `word`."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("sanmill_ugi: the engine exited")
            if word in line.split():
                return line.split()


class Rules:
    """A ugine process under the standard rules, for the end-of-game queries."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path, "--game", "morris"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, bufsize=1,
        )
        self.ask("setoption name Morris Rules value standard", None)

    def ask(self, line, word):
        """Sends `line`, then reads up to a line that starts with `word` and returns it."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        while word:
            reply = self.proc.stdout.readline()
            if not reply:
                raise SystemExit("sanmill_ugi: ugine exited")
            if reply.startswith(word):
                return reply.strip()


def main():
    args = sys.argv[1:]
    rules = None
    if args[:1] == ["--ugine"] and len(args) > 1:
        rules, args = Rules(args[1]), args[2:]
    if not args:
        sys.exit("usage: sanmill_ugi.py [--ugine /path/to/ugine] /path/to/tgf [args…]")
    engine = Sanmill(args)
    moves, board, mover, position = [], {}, 0, "position startpos"
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "ugi":
            engine.send("uci")
            engine.until("uciok")
            print("id name Sanmill (tgf, via sanmill_ugi.py)")
            print("id author Calcitem Studio and contributors")
            print("ugiok", flush=True)
        elif cmd == "isready":
            engine.send("isready")
            engine.until("readyok")
            print("readyok", flush=True)
        elif cmd == "setoption":
            text = " ".join(words)
            name = text.partition(" name ")[2].partition(" value ")[0]
            value = text.partition(" value ")[2]
            if name == "Morris Rules":
                if value != "standard":
                    print("info string error: only the standard rules are played", flush=True)
            elif name.startswith("Morris "):
                print(f"info string error: {name} is not supported", flush=True)
            else:
                engine.send(line.strip())
        elif cmd == "uginewgame":
            engine.send("ucinewgame")
            moves = []
        elif cmd == "position":
            if words[1:2] != ["startpos"]:
                print("info string error: only `position startpos [moves …]`", flush=True)
                continue
            position = line.strip()
            rest = words[words.index("moves") + 1 :] if "moves" in words else []
            moves = [a for m in rest for a in to_sanmill(m)]
            board, mover = {}, 0
            for m in rest:
                play(board, mover, m)
                mover = 1 - mover
        elif cmd == "go":
            best = engine.search(moves, to_ugine_go(words[1:]))
            if best in ("(none)", "none"):
                print(f"info string error: Sanmill found no move ({best})", flush=True)
                print("bestmove", flush=True)
                continue
            removal = ""
            if closes_mill(board, mover, best):
                after = engine.search(moves + [best], ["go", "movetime", str(REMOVAL_MS)])
                removal = after if after.startswith("x") else ""
            print(f"bestmove {best}{removal}", flush=True)
        elif cmd == "query" and rules:
            rules.ask(position, None)
            print(rules.ask(line.strip(), "response"), flush=True)
        elif cmd == "stop":
            engine.send("stop")
        elif cmd == "quit":
            engine.send("quit")
            break
        else:
            print(f"info string error: unknown command '{cmd}'", flush=True)


if __name__ == "__main__":
    main()
