#!/usr/bin/env python3
"""A ZERTZ engine that plays random legal moves, through the protocol of docs/protocol.md.

It shows that the protocol can be spoken from outside Rust with nothing but the standard
library. It knows no rules: it lists the capability `legalmoves`, so the match runner
(`zertz match`) sends it the legal moves before each `bestmove`, and it picks one at random.
It answers `newgame` and `play` with `ok` alone (the position line is optional), and writes
what it does on standard error, which the runner keeps in a log.

    zertz match --a engine --b 'cmd:python3 examples/random_engine.py --seed 7' --movetime 20

Options: --seed N (the random choices; 1 by default), --name NAME (the `id` it announces).
"""

import argparse
import random
import sys


def say(*lines):
    """Writes an answer: its lines, then `ok`."""
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.write("ok\n")
    sys.stdout.flush()


def log(text):
    sys.stderr.write("random_engine.py: " + text + "\n")
    sys.stderr.flush()


def main():
    parser = argparse.ArgumentParser(description="Random legal moves over the ZERTZ protocol.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--name", default="random_engine.py 1.0")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    legal = None  # the moves of the last `legalmoves`, until a move is played
    log("started, seed %d" % args.seed)
    for raw in sys.stdin:
        line = raw.strip()
        if not line:
            continue
        command, _, rest = line.partition(" ")
        rest = rest.strip()
        if command == "info":
            say("id " + args.name, "capabilities legalmoves")
        elif command == "options":
            # Only the repetition rule matters to the game, and the legal moves it is sent
            # already obey it; table size and threads mean nothing to a random player.
            words = rest.split()
            if len(words) == 3 and words[:2] == ["set", "repetition"]:
                say()
            else:
                say("err random_engine.py has no option `%s`" % " ".join(words[1:2]))
        elif command.startswith("newgame"):
            legal = None
            log("newgame " + rest)
            say()
        elif command == "play":
            legal = None
            say()
        elif command == "legalmoves":
            legal = [m.strip() for m in rest.split(";") if m.strip()]
            say()
        elif command == "bestmove":
            if not legal:
                say("err no legal moves known: send legalmoves before bestmove")
                continue
            move = rng.choice(legal)
            log("chose %s among %d moves" % (move, len(legal)))
            say("bestmove " + move)
        elif command == "stop":
            say()
        elif command == "quit":
            log("quit")
            say()
            return
        else:
            say("err unknown command `%s`" % command)
    log("end of input")


if __name__ == "__main__":
    main()
