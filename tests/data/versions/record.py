#!/usr/bin/env python3
# record.py: a recording HTTP proxy for the fixtures of this folder (README.md says
# how they were made). It forwards every request to a llama-server and writes the
# body of each POST /completion request and of its answer, numbered in order, to
# <dir>/request-<k>.json and <dir>/response-<k>.json, byte for byte as they passed.
# Usage: record.py <listen port> <server port> <dir>
import http.server
import os
import sys
import urllib.error
import urllib.request

listen, upstream, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
count = 0


class Proxy(http.server.BaseHTTPRequestHandler):
    def forward(self, body):
        global count
        req = urllib.request.Request(
            "http://127.0.0.1:%d%s" % (upstream, self.path), data=body,
            method=self.command,
            headers={"Content-Type": self.headers.get("Content-Type", "application/json")})
        try:
            with urllib.request.urlopen(req, timeout=600) as r:
                status, data, ctype = r.status, r.read(), r.headers.get("Content-Type")
        except urllib.error.HTTPError as e:
            status, data, ctype = e.code, e.read(), e.headers.get("Content-Type")
        if self.command == "POST" and self.path == "/completion":
            count += 1
            for name, b in (("request", body), ("response", data)):
                with open(os.path.join(out, "%s-%d.json" % (name, count)), "wb") as f:
                    f.write(b)
        self.send_response(status)
        self.send_header("Content-Type", ctype or "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.forward(None)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        self.forward(self.rfile.read(n))

    def log_message(self, *args):
        pass


http.server.HTTPServer(("127.0.0.1", listen), Proxy).serve_forever()
