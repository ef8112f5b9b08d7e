#!/usr/bin/python3
# Write a random-weight llama GGUF that a real llama-server loads: by default a
# few-MB model that answers in milliseconds on a CPU, or an F16 file shaped like
# Llama-3.2-1B (--shape llama-1b), Llama-3.2-3B (llama-3b) or Llama-2-7B
# (llama2-7b) for GPU runs. The vocab is llama.cpp's own
# llama-spm test vocab, so tokenisation is real even though the weights are noise.
# Run it through scripts/tiny-model.sh, which finds gguf-py and the vocab.
import argparse
import os
import sys

SHAPES = {
    # n_embd, n_layer, n_head, n_head_kv, n_ff, type
    "tiny": dict(n_embd=64, n_layer=2, n_head=4, n_head_kv=4, n_ff=128, type="f16"),
    "llama-1b": dict(n_embd=2048, n_layer=16, n_head=32, n_head_kv=8, n_ff=8192, type="f16"),
    "llama-3b": dict(n_embd=3072, n_layer=28, n_head=24, n_head_kv=8, n_ff=8192, type="f16"),
    "llama2-7b": dict(n_embd=4096, n_layer=32, n_head=32, n_head_kv=32, n_ff=11008, type="f16"),
}

# Ids 0..258 of the llama-spm vocab are <unk>, <s>, </s> and the 256 <0xNN> byte
# tokens. A lone byte token can be half a UTF-8 sequence, and the server then
# answers HTTP 500, so greedy decode must never pick one.
N_SPECIAL_AND_BYTE = 259


def parse_args():
    p = argparse.ArgumentParser(description="write a random-weight llama GGUF")
    p.add_argument("out", help="output .gguf path")
    p.add_argument("--shape", choices=sorted(SHAPES), default="tiny")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n-embd", type=int)
    p.add_argument("--n-layer", type=int)
    p.add_argument("--n-head", type=int)
    p.add_argument("--n-head-kv", type=int)
    p.add_argument("--n-ff", type=int)
    p.add_argument("--n-ctx", type=int, default=4096, help="llama.context_length")
    p.add_argument("--type", choices=["f32", "f16"], help="weight type of the matrices")
    p.add_argument("--gguf-py", help="llama.cpp gguf-py dir (else taken from PYTHONPATH)")
    p.add_argument("--vocab", help="vocab GGUF (default: <gguf-py>/../models/ggml-vocab-llama-spm.gguf)")
    a = p.parse_args()
    for k, v in SHAPES[a.shape].items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    if a.n_embd % a.n_head or a.n_head % a.n_head_kv:
        p.error("n_embd must divide by n_head, and n_head by n_head_kv")
    if a.vocab is None:
        if a.gguf_py is None:
            p.error("give --vocab or --gguf-py")
        a.vocab = os.path.join(a.gguf_py, "..", "models", "ggml-vocab-llama-spm.gguf")
    return a


def tensor_plan(a, n_vocab):
    """Yield (name, numpy shape, kind) in file order; numpy shape is ggml's ne reversed."""
    hd = a.n_embd // a.n_head
    yield "token_embd.weight", (n_vocab, a.n_embd), "embd"
    for i in range(a.n_layer):
        b = f"blk.{i}."
        yield b + "attn_norm.weight", (a.n_embd,), "norm"
        yield b + "attn_q.weight", (a.n_head * hd, a.n_embd), "mat"
        yield b + "attn_k.weight", (a.n_head_kv * hd, a.n_embd), "mat"
        yield b + "attn_v.weight", (a.n_head_kv * hd, a.n_embd), "mat"
        yield b + "attn_output.weight", (a.n_embd, a.n_head * hd), "mat"
        yield b + "ffn_norm.weight", (a.n_embd,), "norm"
        yield b + "ffn_gate.weight", (a.n_ff, a.n_embd), "mat"
        yield b + "ffn_up.weight", (a.n_ff, a.n_embd), "mat"
        yield b + "ffn_down.weight", (a.n_embd, a.n_ff), "mat"
    yield "output_norm.weight", (a.n_embd,), "norm"
    yield "output.weight", (n_vocab, a.n_embd), "output"


def make_tensor(np, a, index, shape, kind, dtype):
    """Build one tensor. Each has its own stream so the file depends only on the arguments."""
    if kind == "norm":
        return np.ones(shape, dtype=np.float32)  # norms stay F32: ggml wants them so
    rng = np.random.default_rng([a.seed, index])
    t = rng.standard_normal(shape, dtype=np.float32)
    t *= 1.0 if kind == "embd" else 1.0 / np.sqrt(shape[1])
    if kind == "output":
        t[:N_SPECIAL_AND_BYTE] = 0.0
    return t.astype(dtype, copy=False)


def main():
    a = parse_args()
    if a.gguf_py:
        sys.path.insert(0, a.gguf_py)
    import numpy as np
    import gguf

    vocab = gguf.GGUFReader(a.vocab)
    tok_fields = {k: f for k, f in vocab.fields.items() if k.startswith("tokenizer.")}
    n_vocab = len(tok_fields["tokenizer.ggml.tokens"].data)
    dtype = np.float16 if a.type == "f16" else np.float32

    tmp = a.out + ".tmp"
    w = gguf.GGUFWriter(tmp, "llama")
    w.add_name(f"tpsdb-random-{a.shape}")
    w.add_description(
        f"random weights: shape={a.shape} seed={a.seed} n_embd={a.n_embd} n_layer={a.n_layer} "
        f"n_head={a.n_head} n_head_kv={a.n_head_kv} n_ff={a.n_ff} type={a.type}")
    w.add_file_type(gguf.LlamaFileType.MOSTLY_F16 if a.type == "f16" else gguf.LlamaFileType.ALL_F32)
    w.add_vocab_size(n_vocab)
    w.add_context_length(a.n_ctx)
    w.add_embedding_length(a.n_embd)
    w.add_block_count(a.n_layer)
    w.add_feed_forward_length(a.n_ff)
    w.add_head_count(a.n_head)
    w.add_head_count_kv(a.n_head_kv)
    w.add_rope_dimension_count(a.n_embd // a.n_head)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-5)
    for k, f in tok_fields.items():
        vtype = f.types[0]
        sub = f.types[-1] if vtype == gguf.GGUFValueType.ARRAY else None
        w.add_key_value(k, f.contents(), vtype, sub)

    # Declare every tensor first, then stream them one at a time: the 7B shape
    # would not fit in memory as a whole.
    plan = list(tensor_plan(a, n_vocab))
    for name, shape, kind in plan:
        dt = np.float32 if kind == "norm" else dtype
        nbytes = int(np.prod(shape)) * np.dtype(dt).itemsize
        w.add_tensor_info(name, shape, np.dtype(dt), nbytes)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    for i, (name, shape, kind) in enumerate(plan):
        w.write_tensor_data(make_tensor(np, a, i, shape, kind, dtype))
        if a.shape != "tiny":
            print(f"tiny-model.py: {i + 1}/{len(plan)} {name}", file=sys.stderr)
    w.close()
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
