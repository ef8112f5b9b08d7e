#!/usr/bin/env python3
# fault_server.py: a stand-in for llama-server that misbehaves on purpose, for the
# collector's fault-injection tests and the readiness benchmark only. It takes the
# arguments tpsdb collect passes a server (--host, --port, -m, -c, ...) and, via
# --fault, one way to fail. It binds 127.0.0.1 only and exits by itself after
# --lifetime seconds. Python 3 standard library only.
import argparse
import json
import os
import random
import re
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODES = ["ok", "hang", "reset", "garbage", "no-timings", "http500", "die",
         "slow-load", "never-ready", "load-fail", "endless", "props-bad-utf8",
         "stall-stream", "truncated-stream"]


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("-m", "--model", default="fault.gguf")
    p.add_argument("-c", "--ctx-size", type=int, default=4096)
    # b8390 spells n_max --draft-max: a stand-in of either release drafts.
    p.add_argument("--spec-draft-n-max", "--draft-max", dest="spec_draft_n_max", type=int,
                   default=0)
    # The two releases read p_min differently: b8390 (--draft-p-min) drafts a token
    # and then stops below p_min, v0.4.0 (--spec-draft-p-min) stops before it. The
    # stand-in's drafter is 0.5 sure of every token, so v0.4.0's spelling above 0.5
    # drafts nothing (no draft_n in timings, as v0.4.0 answers), b8390's still drafts.
    p.add_argument("--spec-draft-p-min", dest="spec_draft_p_min", type=float, default=0)
    p.add_argument("--fault", choices=MODES, default="ok")
    p.add_argument("--jitter", type=float, default=0,
                   help="scale the rates (and the times inversely) by a random factor within "
                        "+-this fraction, drawn once per server start (two runs never "
                        "answer identically)")
    p.add_argument("--pp-jitter", type=float, default=0,
                   help="scale the prefill rate (and its time inversely) alone by a "
                        "further random factor within +-this fraction, drawn once per "
                        "start after --jitter's: a noisy prefill beside a clean decode")
    p.add_argument("--req-jitter", type=float, default=0,
                   help="scale every request's rates (and times inversely) by a further "
                        "random factor within +-this fraction, drawn per request from "
                        "the start's generator: scatter within an instance")
    p.add_argument("--slow", type=float, default=1.0,
                   help="divide the rates by this factor and multiply the times by it (1.1: a "
                        "server about 9%% slower)")
    p.add_argument("--seed-file", default=None,
                   help="draw the jitter from a generator seeded with a counter kept in "
                        "this file, one more per start: a sequence of starts reproduces")
    p.add_argument("--slow-starts", default=None, metavar="K/N",
                   help="make K of every N starts slower by --slow-starts-factor, at "
                        "evenly spread places (start i of a cycle is slow when i*K//N "
                        "steps), counted by --seed-file's counter (which it needs): an "
                        "engine slow on some of its starts, deterministically")
    p.add_argument("--slow-starts-factor", type=float, default=3.0)
    p.add_argument("--fault-after", type=int, default=0,
                   help="answer this many generation requests well first")
    p.add_argument("--load-seconds", type=float, default=1.0,
                   help="slow-load: answer 503 Loading model for this long")
    p.add_argument("--delay-ms", type=float, default=0,
                   help="sleep this long before each good answer")
    p.add_argument("--token-ms", type=float, default=0,
                   help="a streamed answer: sleep this long between token events "
                        "(0: every event in one write, as a burst)")
    p.add_argument("--sse-eol", choices=("lf", "crlf", "cr", "mixed", "crlf-split"),
                   default="lf",
                   help="how a streamed answer's lines end: LF (llama-server), CRLF, "
                        "CR alone, a mix of the three, or crlf-split: each event's "
                        "JSON cut over two data: lines, the first line's CR at the end "
                        "of one chunk and its LF opening the next (the SSE format "
                        "allows all of them; a proxy may rewrite LF)")
    p.add_argument("--lifetime", type=float, default=300)
    p.add_argument("--bind-when", default=None, metavar="PATH",
                   help="start up, print 'waiting for PATH', then bind the port only "
                        "once PATH exists: a server that comes up at the moment a test "
                        "chooses, however slowly the interpreter started")
    p.add_argument("--answer", choices=("text", "loop"), default="text",
                   help="loop: the generated text is one short piece repeated, as a "
                        "model collapsed into '</u></u>...' answers")
    p.add_argument("--log-line", action="append", default=[],
                   help="print this line to the log at start (llama.cpp's load "
                        "messages: 'load_tensors: offloaded 8/33 layers to GPU'); "
                        "\\xHH is the byte HH, so a line may hold bytes that are "
                        "not UTF-8")
    args, _unknown = p.parse_known_args(argv)  # -ngl 99 and friends are ignored
    return args


def log(msg):
    sys.stderr.write("fault_server: %s\n" % msg)
    sys.stderr.flush()


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.requests = 0
        start = time.monotonic()
        self.ready_at = start
        if args.fault == "slow-load":
            self.ready_at = start + args.load_seconds
        elif args.fault == "never-ready":
            self.ready_at = float("inf")


def good_body(state, req, chat):
    n_predict = int(req.get("n_predict", req.get("max_tokens", 16)))
    text = req.get("prompt", "")
    if chat:
        text = " ".join(m.get("content", "") for m in req.get("messages", []))
    prompt_n = max(1, len(text) // 4)
    f = state.args.jitter_factor
    pp = state.args.pp_factor
    if state.args.req_jitter:
        r = 1 + state.args.rng.uniform(-state.args.req_jitter, state.args.req_jitter)
        f *= r
        pp *= r
    # The times carry the jitter and the slowness, as a real server's do: tpsdb's
    # rates are the counts over the times, the reported rates agree with them.
    timings = {
        "cache_n": 0,
        "prompt_n": prompt_n,
        "prompt_ms": prompt_n / (2.0 * pp),
        "prompt_per_second": 2000.0 * pp,
        "predicted_n": n_predict,
        "predicted_ms": n_predict * 2.0 / f,
        "predicted_per_second": 500.0 * f,
    }
    n_max = state.args.spec_draft_n_max
    if n_max > 0 and not state.args.spec_draft_p_min > 0.5:
        timings["draft_n"] = n_predict * n_max // 2
        timings["draft_n_accepted"] = n_predict * n_max // 4
    if state.args.answer == "loop":
        content = "</u>" * 64
    else:
        content = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do "
                   "eiusmod tempor incididunt ut labore et dolore magna aliqua.")
    if chat:
        return {"choices": [{"index": 0, "finish_reason": "length",
                             "message": {"role": "assistant", "content": content}}],
                "model": state.args.model, "timings": timings}
    return {"content": content, "model": state.args.model, "stop_type": "limit",
            "prompt": text,
            "generation_settings": {"n_predict": n_predict, "seed": req.get("seed", 0),
                                    "temperature": 0, "ignore_eos": True},
            "timings": timings}


def stream_events(state, req, chat):
    """The events of a streamed answer, as llama-server sends them: one per token
    (its piece of the text, one token id), then the final message with the timings
    and an empty content (the text was streamed); the chat route's OpenAI chunks
    and "[DONE]" there."""
    body = good_body(state, req, chat)
    n = body["timings"]["predicted_n"]
    if chat:
        text = body["choices"][0]["message"]["content"]
    else:
        text = body["content"]
    cut = [len(text) * i // max(n, 1) for i in range(n + 1)]
    pieces = [text[cut[i]:cut[i + 1]] for i in range(n)]
    events = []
    for i, piece in enumerate(pieces):
        if chat:
            events.append({"choices": [{"finish_reason": None, "index": 0,
                                        "delta": {"content": piece}}],
                           "object": "chat.completion.chunk"})
        else:
            events.append({"index": 0, "content": piece, "tokens": [100 + i],
                           "stop": False, "tokens_predicted": i + 1})
    if chat:
        final = {"choices": [{"finish_reason": "length", "index": 0, "delta": {}}],
                 "model": body["model"], "object": "chat.completion.chunk",
                 "timings": body["timings"]}
    else:
        final = dict(body, content="", tokens=[], stop=True)
    return events, final


# Pairs of line ends (the data: line's, the blank line's) that --sse-eol mixed
# takes in turn; a CR is never followed by an LF, which would make one CRLF of two.
MIXED_EOLS = [(b"\n", b"\r"), (b"\r\n", b"\n"), (b"\r", b"\r\n"), (b"\r", b"\r"),
              (b"\n", b"\r\n")]


def sse_frame(data, eol, k):
    """Event k carrying data, as the chunks to send (--sse-eol)."""
    if eol == "crlf-split":
        cut = data.find(b", ")
        if cut < 0:
            return [b"data: " + data + b"\r", b"\n\r\n"]
        return [b"data: " + data[:cut + 1] + b"\r",
                b"\ndata:" + data[cut + 1:] + b"\r\n\r\n"]
    if eol == "mixed":
        one, two = MIXED_EOLS[k % len(MIXED_EOLS)]
    else:
        one = two = {"lf": b"\n", "crlf": b"\r\n", "cr": b"\r"}[eol]
    return [b"data: " + data + one + two]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    state = None

    def setup(self):
        super().setup()
        # Headers and body go out in two writes; without this, Nagle and the
        # client's delayed ACK add 40 ms to every answer.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, fmt, *a):
        log("%s %s" % (self.address_string(), fmt % a))

    def send_json(self, code, obj, raw=None):
        body = raw if raw is not None else json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_chunk(self, data):
        self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
        self.wfile.flush()

    def send_stream(self, req, chat, mode):
        """A streamed answer in chunked encoding. stall-stream stops sending after
        half of the tokens and holds the connection; truncated-stream ends the body
        cleanly there, without the final message."""
        st = self.state
        events, final = stream_events(st, req, chat)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if mode in ("stall-stream", "truncated-stream"):
            events = events[:len(events) // 2]
            log("%s after %d tokens" % (mode, len(events)))
        else:
            events.append(final)
        eol = st.args.sse_eol
        frames = [sse_frame(json.dumps(e).encode(), eol, k) for k, e in enumerate(events)]
        if chat and mode == "ok":
            frames.append(sse_frame(b"[DONE]", eol, len(frames)))
        try:
            if st.args.token_ms > 0 or eol == "crlf-split":
                for f in frames:
                    for i, piece in enumerate(f):
                        if i:
                            # Its own read: the CR ends one piece, the LF opens
                            # the next.
                            time.sleep(0.003)
                        self.send_chunk(piece)
                    if st.args.token_ms > 0:
                        time.sleep(st.args.token_ms / 1000.0)
            else:
                self.send_chunk(b"".join(b"".join(f) for f in frames))
            if mode == "stall-stream":
                time.sleep(st.args.lifetime)
                return
            self.wfile.write(b"0\r\n\r\n")
        except OSError:
            self.close_connection = True
        if mode == "truncated-stream":
            self.close_connection = True

    def do_GET(self):
        st = self.state
        if self.path == "/health":
            if time.monotonic() >= st.ready_at:
                self.send_json(200, {"status": "ok"})
            else:
                self.send_json(503, {"error": {"code": 503, "message": "Loading model",
                                               "type": "unavailable_error"}})
        elif self.path == "/props" and st.args.fault == "props-bad-utf8":
            # A model path that is not UTF-8 (a Latin-1 file name), raw in the JSON.
            self.send_json(200, None, raw=b'{"build_info": "fault-server-1", "model_path": '
                           b'"/m/mod\xe8le-\xff.gguf", "default_generation_settings": '
                           b'{"n_ctx": %d}}' % st.args.ctx_size)
        elif self.path == "/props":
            self.send_json(200, {"build_info": "fault-server-1",
                                 "model_path": st.args.model,
                                 "default_generation_settings": {"n_ctx": st.args.ctx_size}})
        else:
            self.send_json(404, {"error": {"code": 404, "message": "File Not Found"}})

    def do_POST(self):
        st = self.state
        n = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(n)
        if self.path not in ("/completion", "/v1/chat/completions"):
            self.send_json(404, {"error": {"code": 404, "message": "File Not Found"}})
            return
        with st.lock:
            st.requests += 1
            k = st.requests
        mode = st.args.fault if k > st.args.fault_after else "ok"
        if mode == "die":
            log("dying at request %d" % k)
            os._exit(3)
        if mode == "hang":
            log("hanging request %d" % k)
            time.sleep(st.args.lifetime)
            return
        if mode == "reset":
            log("resetting request %d" % k)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        if mode == "endless":
            # An answer that never ends: chunks until the client hangs up.
            log("endless body for request %d" % k)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"x" * 65536
            frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
            try:
                self.wfile.write(b'7\r\n{"a":"x\r\n')
                while True:
                    self.wfile.write(frame)
            except OSError:
                pass
            self.close_connection = True
            return
        if mode == "garbage":
            self.send_json(200, None, raw=b"<html>this is not JSON</html>")
            return
        if mode == "no-timings":
            self.send_json(200, {"content": "lorem", "stop_type": "limit"})
            return
        if mode == "http500":
            self.send_json(500, {"error": {"code": 500, "type": "server_error",
                                           "message": "fault_server: injected failure"}})
            return
        try:
            req = json.loads(raw or b"{}")
        except ValueError:
            self.send_json(400, {"error": {"code": 400, "message": "bad JSON"}})
            return
        if st.args.delay_ms > 0:
            time.sleep(st.args.delay_ms / 1000.0)
        if req.get("stream") is True:
            self.send_stream(req, self.path != "/completion", mode)
            return
        self.send_json(200, good_body(st, req, self.path != "/completion"))


def main():
    args = parse_args(sys.argv[1:])
    rng = random
    if args.seed_file:
        try:
            with open(args.seed_file) as f:
                count = int(f.read().strip() or 0)
        except FileNotFoundError:
            count = 0
        with open(args.seed_file, "w") as f:
            f.write("%d\n" % (count + 1))
        rng = random.Random(count)
    args.rng = rng
    args.jitter_factor = 1 + rng.uniform(-args.jitter, args.jitter) if args.jitter else 1
    args.jitter_factor /= args.slow
    if args.slow_starts:
        if not args.seed_file:
            sys.exit("fault_server: --slow-starts needs --seed-file (the start counter)")
        k, n = (int(x) for x in args.slow_starts.split("/"))
        i = count % n
        if i * k // n != (i + 1) * k // n:
            args.jitter_factor /= args.slow_starts_factor
            log("slow start %d (%d of every %d)" % (count, k, n))
    args.pp_factor = args.jitter_factor
    if args.pp_jitter:
        args.pp_factor *= 1 + rng.uniform(-args.pp_jitter, args.pp_jitter)
    log("pid %d pgid %d fault %s port %d HOME=%s CUDA_VISIBLE_DEVICES=%s"
        % (os.getpid(), os.getpgid(0), args.fault, args.port, os.environ.get("HOME", ""),
           os.environ.get("CUDA_VISIBLE_DEVICES", "")))
    sys.stderr.flush()
    for line in args.log_line:
        raw = re.sub(rb"\\x([0-9a-fA-F]{2})", lambda m: bytes([int(m.group(1), 16)]),
                     line.encode("utf-8", "surrogateescape"))
        sys.stderr.buffer.write(raw + b"\n")
    sys.stderr.buffer.flush()
    if args.fault == "load-fail":
        time.sleep(0.05)
        log("error: failed to load model '%s'" % args.model)
        sys.exit(1)
    # Whatever happens, this process does not outlive its lifetime.
    t = threading.Timer(args.lifetime, lambda: os._exit(0))
    t.daemon = True
    t.start()
    if args.bind_when:
        log("waiting for %s" % args.bind_when)
        sys.stderr.flush()
        while not os.path.exists(args.bind_when):
            time.sleep(0.01)
    state = State(args)
    Handler.state = state
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.allow_reuse_address = True
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    if args.fault == "slow-load":
        log("health flips to 200 at monotonic %.6f" % state.ready_at)
    srv.serve_forever(poll_interval=0.05)


if __name__ == "__main__":
    main()
