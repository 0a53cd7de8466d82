#!/usr/bin/env python3
"""Measures how fast a UGI engine answers `isready` and `stop` in the middle of a search.

    scripts/stop_latency.py [ENGINE] [--repeat N] [--games g1,g2,...]

For each game: `go infinite` from the start position, wait 300 ms, send `isready` and time
the `readyok`, then send `stop` and time the `bestmove`. Prints the median and the worst
of N repeats in milliseconds. ENGINE defaults to target/release/ugine.
"""
import argparse
import statistics
import subprocess
import time

GAMES = ["morris", "moebius-chess", "mobius", "mabula", "morpiae"]


def wait_for(proc, prefix):
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("engine closed its output")
        if line.startswith(prefix):
            return line


def measure(engine, game, repeat):
    proc = subprocess.Popen([engine, "--game", game], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, bufsize=1)
    send = lambda s: (proc.stdin.write(s + "\n"), proc.stdin.flush())
    ready, stop = [], []
    for _ in range(repeat):
        send("position startpos")
        send("go infinite")
        time.sleep(0.3)
        t = time.perf_counter()
        send("isready")
        wait_for(proc, "readyok")
        ready.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        send("stop")
        wait_for(proc, "bestmove")
        stop.append((time.perf_counter() - t) * 1000)
    send("quit")
    proc.wait()
    return ready, stop


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine", nargs="?", default="target/release/ugine")
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--games", default=",".join(GAMES))
    args = ap.parse_args()
    print(f"{'game':<14} {'isready median/max ms':>22} {'stop median/max ms':>20}")
    for game in args.games.split(","):
        ready, stop = measure(args.engine, game, args.repeat)
        print(f"{game:<14} {statistics.median(ready):>12.2f} / {max(ready):<7.2f}"
              f" {statistics.median(stop):>10.2f} / {max(stop):<7.2f}")


if __name__ == "__main__":
    main()
