"""A stand-in for Hugging Face's `datasets`, enough for llama.cpp's speed_bench.py:
its two calls, answered from the local prompts.json beside this folder (or
$SPEED_BENCH_PROMPTS), so the real script runs with no network. The bench name it
offers is "qualitative"; each row is {question_id, category, turns}."""
import json
import os

_PROMPTS = os.environ.get("SPEED_BENCH_PROMPTS",
                          os.path.join(os.path.dirname(__file__), "..", "prompts.json"))


class _Rows(list):
    # speed_bench.py reads dataset["category"] as a column, then iterates rows.
    def __getitem__(self, key):
        if isinstance(key, str):
            return [row[key] for row in self]
        return list.__getitem__(self, key)


def get_dataset_config_names(repo):
    return ["qualitative"]


def load_dataset(repo, name=None, split=None):
    with open(_PROMPTS, encoding="utf-8") as f:
        return _Rows(json.load(f))
