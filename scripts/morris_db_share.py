#!/usr/bin/env python3
"""Share of the Morris games of `ugine match` records that reached a class of the endgame
databases (movement phase, 3 to MEN men per side, default 5).

    scripts/morris_db_share.py RECORDS... [--men N]

Counts men from each game's opening position string (movement-phase openings, as
`ugine genfens morris N --men M` writes them) and the removals written in its moves
(`a4-a7xd2`: the mover removes an enemy man). Men only ever decrease there, one at a
time, so a game reached a covered class exactly when neither side has more than MEN men
at its end (a side left with two men had three, with the other side unchanged, just
before). Games from openings with men in hand are counted apart, as not decidable here.
"""

import sys


def final_men(opening, moves):
    """Men (white, black) at the end, or None when the opening has men in hand."""
    words = opening.split()
    if not words or words[0] != "fen":
        return None
    board, side, white_hand, black_hand = words[1:5]
    if (white_hand, black_hand) != ("0", "0"):
        return None
    men = {"w": board.count("W"), "b": board.count("B")}
    after = words.index("moves") + 1 if "moves" in words else len(words)
    for mv in words[after:] + moves.split():
        if "x" in mv:
            men["b" if side == "w" else "w"] -= 1
        side = "b" if side == "w" else "w"
    return men["w"], men["b"]


def main(argv):
    men = 5
    files = []
    args = iter(argv)
    for a in args:
        if a == "--men":
            men = int(next(args))
        else:
            files.append(a)
    if not files:
        sys.exit(__doc__)
    games = covered = undecidable = 0
    for path in files:
        with open(path) as f:
            for line in f:
                fields = dict(kv.split("=", 1) for kv in line.rstrip("\n").split("\t") if "=" in kv)
                if fields.get("game") != "morris":
                    continue
                games += 1
                end = final_men(fields.get("opening", ""), fields.get("moves", ""))
                if end is None:
                    undecidable += 1
                elif max(end) <= men:
                    covered += 1
    decidable = games - undecidable
    share = 100.0 * covered / decidable if decidable else 0.0
    print(f"{games} games, {covered} reached a class of at most {men} men per side "
          f"({share:.1f}% of {decidable} from movement-phase openings)")


if __name__ == "__main__":
    main(sys.argv[1:])
