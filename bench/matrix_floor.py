#!/usr/bin/env python3
"""bench/matrix_floor.py: a matrix's server time against its per-cell floor.

Reads a store's export (tpsdb export --format jsonl) of one collect
--until-decided batch and prints, per model, the server time its instances
took (each run's ended_at - started_at: from the server's start to its exit)
beside the floor: 3 rounds, the first look, of every cell of the model at
the mean cost of the cell's instances. The floor is the least any matrix
could spend if every comparison were answered at its first look; the rest is
what the open cells bought after it.

Usage: bench/matrix_floor.py <export.jsonl> [tag]
"""
import collections
import datetime
import json
import sys

FIRST_LOOK = 3


def when(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ")


def main():
    if len(sys.argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    tag = sys.argv[2] if len(sys.argv) == 3 else None
    cost = collections.defaultdict(list)   # (model, engine, arm) -> seconds
    rounds = collections.defaultdict(int)  # model -> rounds run
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            run = json.loads(line)["run"]
            if tag is not None and run["tag"] != tag:
                continue
            if not run.get("ended_at"):
                continue
            s = (when(run["ended_at"]) - when(run["started_at"])).total_seconds()
            arm = "base" if run["n_max"] is None else "n_max=%d" % run["n_max"]
            model = run["model"]["label"]
            cost[(model, run["engine"]["label"], arm)].append(s)
            rounds[model] = max(rounds[model], run["round"] or 0)
    if not cost:
        sys.stderr.write("matrix_floor.py: no runs\n")
        return 1
    models = sorted({k[0] for k in cost})
    print("%-8s %6s %6s %10s %10s %7s" % ("model", "series", "rounds", "server s",
                                         "floor s", "ratio"))
    tot_s = tot_f = 0.0
    for m in models:
        cells = [k for k in cost if k[0] == m]
        spent = sum(sum(cost[k]) for k in cells)
        floor = FIRST_LOOK * sum(sum(cost[k]) / len(cost[k]) for k in cells)
        tot_s += spent
        tot_f += floor
        print("%-8s %6d %6d %10.1f %10.1f %7.2f" % (m, len(cells), rounds[m], spent,
                                                   floor, spent / floor))
    print("%-8s %6d %6s %10.1f %10.1f %7.2f" % ("all", len(cost), "", tot_s, tot_f,
                                               tot_s / tot_f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
