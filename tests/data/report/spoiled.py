#!/usr/bin/env python3
"""spoiled.py: study.jsonl with a spoiled newest batch (t1150, t1151). Its q35 base
runs of ours and llama.cpp are the batch b-new, ours' measured on a busy host
(env_flags 1, host-busy, as collect stores it); a copy of the two a month before
is the clean batch b-old, on the same machine. The other runs are study.jsonl's.
So the report's answer of ours vs llama.cpp on q35 is spoiled, and its newest
clean answer is b-old's. Usage: spoiled.py study.jsonl > out.jsonl"""
import copy
import json
import sys

NEW = ("00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002")
for line in open(sys.argv[1]):
    r = json.loads(line)
    run = r["run"]
    if run["uuid"] in NEW:
        old = copy.deepcopy(r)
        o = old["run"]
        o["uuid"] = o["uuid"][:-3] + "1" + o["uuid"][-2:]
        for k in ("started_at", "ended_at"):
            o[k] = o[k].replace("2025-06-01", "2025-05-01")
        o["batch"], o["round"], o["tag"] = "b-old", 1, ""
        print(json.dumps(old))
        run["batch"], run["round"], run["tag"] = "b-new", 1, ""
        if run["engine"]["label"] == "ours":
            run["env_flags"] = 1
    print(json.dumps(r))
