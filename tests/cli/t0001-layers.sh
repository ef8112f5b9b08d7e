#!/usr/bin/env bash
# t0001-layers.sh: the house plan of docs/ARCHITECTURE.md, checked on the source tree.
# Commands live in cmd/ only and are main.c's entries; SQLite and SQL are schema/'s
# only; analyze/ does no I/O and schema/ calls none of it; the command owns the
# transaction; proc.c alone starts children, escape.c alone escapes; collect/ takes
# no function from cmd/; reports/ never touches the store; every #include points
# down a layer (or stays in its folder) and no file calls a folder it may not
# include; the root's lower files stand in a line; no folder holds more than 30%;
# no call goes round a ring, nor an include below cmd/ (7).
set -eu
: "${TPSDB_SRC:?TPSDB_SRC must name the source tree}"
cd "$TPSDB_SRC"
fail=0
bad() { echo "layers: $*" >&2; fail=1; }

# 1-5 read the tree as the compiler does, not line by line: every .c and .h of the
# binary found by walking the folders (a subfolder is its stage's; C in a folder
# the plan does not name is refused), comments and string literals blanked before
# a name is looked for, '# include' and <...> alike, includes followed through
# other headers, a name found as a call, a function pointer or inside a macro that
# a file uses, and a prototype of one's own no way around the plan.
python3 - <<'PY' || fail=1
import os
import re
import sys

STAGES = ("cmd", "collect", "schema", "analyze", "reports")
# Beside the stages (docs/ARCHITECTURE.md): never part of the binary.
BESIDE = ("tests", "bench", "docs", "scripts")
fails = 0


def bad(msg):
    global fails
    print("layers: " + msg, file=sys.stderr)
    fails += 1


def stage(p):
    top = p.split("/")[0]
    return top if "/" in p else "."


# 0. Every C file of the binary, found by walking the tree (a subfolder of a stage
# is that stage; a folder the plan does not name is refused), read once with
# comments blanked (nc) and, for the code rules, string and character literals
# blanked too (code). Both keep every line where it was; a macro's definition
# runs on over its continued lines.
files = {}
for dp, dns, fns in os.walk("."):
    rel = os.path.normpath(dp)
    top = rel.split(os.sep)[0]
    if rel != "." and (top in BESIDE or top.startswith((".", "build"))):
        dns[:] = []
        continue
    for fn in sorted(fns):
        if not fn.endswith((".c", ".h")):
            continue
        p = os.path.normpath(os.path.join(rel, fn)).replace(os.sep, "/")
        if rel != "." and top not in STAGES:
            bad("%s: C outside the five folders and the root (a folder the plan "
                "does not name)" % p)
        with open(p, encoding="utf-8", errors="replace") as f:
            files[p] = f.read()

LIT = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)


def blank(m, keep_strings):
    s = m.group(0)
    if s[0] == "/" or not keep_strings:
        q = "" if s[0] == "/" else s[0] * 2
        return q + re.sub(r"[^\n]", " ", s[len(q):])
    return s


nc = {p: LIT.sub(lambda m: blank(m, True), t) for p, t in files.items()}
code = {p: LIT.sub(lambda m: blank(m, False), t) for p, t in files.items()}


def lineno(text, pos):
    return text.count("\n", 0, pos) + 1


def line_of(p, n):
    return files[p].split("\n")[n - 1].strip()


# Includes: '#include', '# include', quotes or angle brackets; a quoted name is
# looked up beside the file, then at the root (the one -I), as the compiler does.
INC = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:([<"])([^>"\n]+)[>"]|(.*))', re.M)
incs = {}
for p, t in nc.items():
    out = []
    for m in INC.finditer(t):
        if m.group(3) is not None:
            bad("%s:%d: an include the check cannot follow: %s"
                % (p, lineno(t, m.start()), m.group(0).strip()))
            continue
        name = m.group(2).strip()
        cands = [os.path.normpath(os.path.join(os.path.dirname(p), name))] if m.group(1) == '"' else []
        cands.append(os.path.normpath(name))
        hit = next((c for c in cands if c in files), None)
        out.append((lineno(t, m.start()), hit or "<%s>" % name))
    incs[p] = out


def reach(p, memo={}):
    """Every header p includes, directly or through another header."""
    if p in memo:
        return memo[p]
    memo[p] = seen = set()
    todo = [t for _, t in incs.get(p, [])]
    while todo:
        t = todo.pop()
        if t in seen:
            continue
        seen.add(t)
        todo.extend(x for _, x in incs.get(t, []))
    return seen


def in_stage(s):
    return [p for p in files if stage(p) == s]


# File-scope names a header declares: an identifier followed by '(' outside any
# brace or parenthesis (a function, or a function-like macro), so a call inside
# a static inline body is not a declaration.
def declared(p):
    t = code[p]
    names = set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(", t, re.M))
    t = re.sub(r"^[ \t]*#(?:[^\n]|\\\n)*", "", t, flags=re.M)
    depth = 0
    for m in re.finditer(r"[{}()]|\w+(?=\s*\((?!\s*\*))", t):
        s = m.group(0)
        if s in "{(":
            depth += 1
        elif s in "})":
            depth -= 1
        elif depth == 0 and not s[0].isdigit():
            names.add(s)
    return names - {"__attribute__", "sizeof", "defined", "_Static_assert", "static_assert"}


# Macros, so a banned call hidden in a macro is found where the macro is used.
DEF = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]|\\\n)*)", re.M)
macros = {}
for p, t in code.items():
    for m in DEF.finditer(t):
        macros.setdefault(m.group(1), []).append((p, m.group(2)))


def names_re(names):
    return re.compile(r"(?<![\w.>])(?:%s)(?!\w)" % "|".join(sorted(names)))


def called(t, m):
    """A use of a function: a call or prototype (name then '('), or the function
    taken as a value (after '=', ',', '(', a cast or '&', before ',', ')' or ';'), so a
    struct member that shares its name is not one."""
    after = t[m.end():].lstrip()[:1]
    before = t[:m.start()].rstrip()
    return after == "(" or (after in (",", ")", ";") and
                            (before[-1:] in ("=", ",", "(", ")", "&") or before.endswith("return")))


def uses(paths, names, what, allow=(), calls=False):
    """Reports every use in paths of an identifier in names (a call, a function
    pointer taken, a type named), or of a macro that expands to one."""
    if not names:
        return
    names = set(names)
    taint = set()
    grown = True
    while grown:
        grown = False
        r = names_re(names | taint)
        for mname, defs in macros.items():
            if mname not in taint and mname not in names and any(r.search(b) for _, b in defs):
                taint.add(mname)
                grown = True
    for p in sorted(paths):
        if p in allow:
            continue
        vis = {p} | reach(p)
        mine = {m for m in taint if any(d in vis for d, _ in macros[m])}
        r = names_re(names | mine)
        for m in r.finditer(code[p]):
            if calls and not called(code[p], m):
                continue
            n = lineno(code[p], m.start())
            how = "through the macro " if m.group(0) in mine else ""
            bad("%s:%d: %s (%s%s): %s" % (p, n, what, how, m.group(0), line_of(p, n)))


ALL = set(files)

# 1. Every command is cmd/cmd_<name>.c, ends with its CMD_ENTRY(<name>, ...), and
# is in cmd/ctx.c's cmd_table, the one table main.c and docs/man/mangen.c read.
cmds = sorted(p for p in files if os.path.basename(p).startswith("cmd_") and p.endswith(".c"))
for p in cmds:
    if os.path.dirname(p) != "cmd":
        bad("%s: a command outside cmd/" % p)
table = re.search(r"cmd_table\[\]\s*=\s*\{([^}]*)\}", code.get("cmd/ctx.c", ""))
entries = set(re.findall(r"&cmd_(\w+)_entry", table.group(1))) if table else set()
have = {os.path.basename(p)[4:-2] for p in cmds if os.path.dirname(p) == "cmd"}
if not entries:
    bad("cmd/ctx.c: no cmd_table of command entries found")
for n in sorted(have ^ entries):
    bad("cmd_%s: %s" % (n, "not in cmd_table" if n in have else "in cmd_table, no cmd/cmd_%s.c" % n))
for n in sorted(have):
    if not re.search(r"^CMD_ENTRY\(\s*%s\s*," % n, code["cmd/cmd_%s.c" % n], re.M):
        bad("cmd/cmd_%s.c: no CMD_ENTRY(%s, ...)" % (n, n))
for p in ("main.c", "docs/man/mangen.c"):
    with open(p, encoding="utf-8", errors="replace") as f:
        text = LIT.sub(lambda m: blank(m, False), f.read())
    if re.search(r"&cmd_\w+_entry", text):
        bad("%s: a table of command entries of its own (cmd_table is the one)" % p)

# 2. schema/ is the only place that speaks SQL: nothing else reaches <sqlite3.h>
# (even through a header), names a sqlite3 identifier, writes an SQL statement,
# or reaches schema/'s private headers; its public headers offer typed functions.
PRIV = {"schema/store_int.h", "schema/sqlite.h", "schema/migrate_int.h"}
for p in sorted(files):
    if stage(p) == "schema":
        continue
    for h in sorted(reach(p) & (PRIV | {"<sqlite3.h>"})):
        bad("%s reaches %s (SQLite outside schema/)" % (p, h))
SQLID = re.compile(r"(?<![\w.>])sqlite3\w*")
SQLTXT = re.compile(r'"\s*(?:SELECT|INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA|'
                    r'BEGIN|COMMIT|ROLLBACK|SAVEPOINT|ATTACH|VACUUM|WITH)\s')
for p in sorted(ALL - set(in_stage("schema"))):
    for m in SQLID.finditer(code[p]):
        n = lineno(code[p], m.start())
        bad("%s:%d: SQLite used outside schema/: %s" % (p, n, line_of(p, n)))
    if p == "collect/llama_bench.c":
        continue  # it reads llama-bench's '-o sql' text; its words are error messages
    for m in SQLTXT.finditer(nc[p]):
        n = lineno(nc[p], m.start())
        bad("%s:%d: SQL outside schema/: %s" % (p, n, line_of(p, n)))
for p in sorted(in_stage("schema")):
    if p.endswith(".h") and p not in PRIV:
        for h in sorted(reach(p) & (PRIV | {"<sqlite3.h>"})):
            bad("%s: a public header of schema/ reaches %s" % (p, h))
        for m in re.finditer(r"\bsqlite3\w*|\bstore_(?:stmt|bind_\w+|col_\w+|db)\b", code[p]):
            n = lineno(code[p], m.start())
            bad("%s:%d: schema/'s public header exposes SQLite: %s" % (p, n, line_of(p, n)))
        # It calls back up only to stream: store_runs_foreach(), store_integrity().
        for m in re.finditer(r"\(\s*\*\s*\w*\s*\)\s*\(", code[p]):
            start = max(code[p].rfind(";", 0, m.start()), code[p].rfind("}", 0, m.start()))
            fn = re.search(r"(\w+)\s*\(", code[p][start + 1:m.start()])
            if not fn or fn.group(1) not in ("store_runs_foreach", "store_integrity"):
                n = lineno(code[p], m.start())
                bad("%s:%d: schema/ takes a function (only store_runs_foreach() and "
                    "store_integrity() stream up): %s" % (p, n, line_of(p, n)))
# The migrations sit below the store (both above schema/sqlite.c): migrate.c
# calls nothing of store.c, sqlite.c nothing of either.
store_fns = declared("schema/store.h") | declared("schema/store_int.h") | declared("schema/store.c")
migrate_fns = declared("schema/migrate_int.h") | declared("schema/migrate.c")
uses({"schema/migrate.c"}, store_fns - migrate_fns, "schema/migrate.c calls up into the store",
     calls=True)
if "schema/store_int.h" in reach("schema/migrate.c"):
    bad("schema/migrate.c reaches schema/store_int.h")
uses({"schema/sqlite.c"}, (store_fns | migrate_fns) - declared("schema/sqlite.h") - declared("schema/sqlite.c"),
     "schema/sqlite.c calls up into the store or the migrations", calls=True)

# 3. analyze/ decides and never prints, opens, exits or reads the store: it
# includes no <stdio.h> itself and names nothing of it (tpsdb.h brings the header;
# a label goes through the root's tps_xasprintf()).
A = set(in_stage("analyze"))
for p in sorted(A):
    for n, h in incs[p]:
        if h in ("<stdio.h>", "<unistd.h>", "<fcntl.h>", "<sqlite3.h>"):
            bad("%s:%d: analyze/ includes %s" % (p, n, h))
STDIO = {"printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "vsprintf",
         "vsnprintf", "dprintf", "asprintf", "vasprintf", "puts", "fputs", "putchar", "fputc",
         "putc", "fopen", "fdopen", "freopen", "fclose", "fflush", "fwrite", "fread", "fgets",
         "fgetc", "getc", "getchar", "scanf", "fscanf", "perror", "FILE", "stdout", "stderr",
         "stdin", "exit", "_exit", "_Exit", "quick_exit", "tps_ctx", "tps_ctx_store",
         "tps_error", "tps_warning", "tps_usage", "tps_usage_hint"}
# POSIX I/O by call only (a variable may be called 'open').
STDIO |= {r"(?:open|creat|read|write|unlink|rename|mkdir)(?=\s*\()"}
uses(A, STDIO | {r"store_\w+"}, "I/O or the store in analyze/")
for p in sorted(A):
    for m in re.finditer(r"\bstruct\s+store\b", code[p]):
        n = lineno(code[p], m.start())
        bad("%s:%d: the store in analyze/: %s" % (p, n, line_of(p, n)))

# ... and schema/ loads, never decides: it may name analyze/'s plain types (its
# loaders fill them) but calls no function analyze/ declares.
afuncs = set()
for p in A:
    if p.endswith(".h"):
        afuncs |= declared(p)
if not afuncs:
    bad("no function found in analyze/'s headers")
uses(set(in_stage("schema")), afuncs, "schema/ calls analyze/", calls=True)

# 3b. The command owns the transaction (import, merge, baseline, calibrate);
# collect/ commits what it measures as it arrives (a run row, each sample, a
# file's hash), so a killed collect keeps it.
TX = {r"store_begin", r"store_commit", r"store_rollback"}
uses(ALL - set(in_stage("cmd")), TX, "a transaction opened outside cmd/ and collect's writers",
     allow={"collect/cell.c", "collect/filehash.c", "schema/store.c", "schema/store.h"})
txr = names_re(TX)
owners = sorted(os.path.basename(p)[4:-2] for p in in_stage("cmd") if txr.search(code[p]))
if owners != ["baseline", "calibrate", "import", "merge"]:
    bad("the commands that own a transaction are %s, not ARCHITECTURE.md's import, merge, "
        "baseline, calibrate" % ", ".join(owners))

# 3c. proc.c is the one way a child process runs (a deadline, a group, a reap).
uses(ALL, {"fork", "vfork", "clone", "clone3", "popen", "system", "posix_spawn",
           "posix_spawnp", "execv", "execve", "execvp", "execvpe", "execl", "execle", "execlp",
           "fexecve", "daemon"}, "a child process outside proc.c", allow={"proc.c"})

# 3d. escape.c holds every sink's escape: no escaper is defined anywhere else,
# by name or by what it writes (an entity, a workflow command's %0A, CDATA's end).
for p in sorted(ALL - {"escape.c", "escape.h"}):
    for m in re.finditer(r"^[A-Za-z].*?\b(\w*escape\w*)\s*\(", code[p], re.M):
        if m.group(1) in declared("escape.h") or "unescape" in m.group(1):
            continue  # escape.c's own, or a reader's unescape (json_strict.c)
        n = lineno(code[p], m.start())
        bad("%s:%d: an escaper outside escape.c: %s" % (p, n, line_of(p, n)))
    for m in re.finditer(r'"(?:&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);|%0[AaDd]|%25|%3[Aa]|'
                         r'%2[Cc]|\]\]\]\]>(?:<!\[CDATA\[)?|\\\\u00[0-9a-fA-F]{0,2}|\\\\[nrt])"', nc[p]):
        n = lineno(nc[p], m.start())
        bad("%s:%d: an escape table outside escape.c: %s" % (p, n, line_of(p, n)))

# 3e. collect/ never calls up into cmd/: no header of collect/ that cmd/ reaches
# takes a function or names a function type, no file of collect/ names anything
# cmd/ declares (the command owns the round loop and hands collect/ data).
fntypes = set()
for p, t in code.items():
    fntypes |= set(re.findall(r"\btypedef\b[^;]*?\(\s*\*\s*(\w+)\s*\)\s*\(", t))
    fntypes |= set(re.findall(r"\btypedef\b[^;(]*?\b(\w+)\s*\([^*)][^;]*;", t))
seen_h = set()
for p in in_stage("cmd"):
    seen_h |= {h for h in reach(p) | {p} if stage(h) == "collect"}
for h in sorted(seen_h):
    for m in re.finditer(r"\(\s*\*\s*\w*\s*\)\s*\(", code[h]):
        n = lineno(code[h], m.start())
        bad("%s:%d: lets cmd/ hand collect/ a function: %s" % (h, n, line_of(h, n)))
    for m in names_re(fntypes).finditer(code[h]) if fntypes else ():
        n = lineno(code[h], m.start())
        bad("%s:%d: lets cmd/ hand collect/ a function (%s): %s" % (h, n, m.group(0), line_of(h, n)))

# 4. reports/ renders what it is handed: no store (not schema/store.h, not even
# through another header), no command.
R = set(in_stage("reports"))
for p in sorted(R):
    if "schema/store.h" in reach(p):
        bad("%s reaches schema/store.h" % p)
uses(R, {r"store_\w+", "tps_ctx", "tps_ctx_store"} | declared("schema/store.h"),
     "reports/ reaches into the store")
for p in sorted(R):
    for m in re.finditer(r"\bstruct\s+store\b", code[p]):
        n = lineno(code[p], m.start())
        bad("%s:%d: reports/ reaches into the store: %s" % (p, n, line_of(p, n)))

# 5. Includes point down. Each folder may include its own headers, the root's
# (below everything) and these; no file names a function of a folder it may not
# include (a prototype of its own is no way around the plan).
ALLOWED = {"analyze": {"analyze"}, "schema": {"schema", "analyze"},
           "collect": {"collect", "schema"}, "reports": {"reports", "analyze", "schema"},
           "cmd": set(STAGES), ".": set()}
for p in sorted(files):
    if p == "main.c":
        continue  # the dispatcher is the one root file above the folders
    s = stage(p)
    for n, h in incs[p]:
        if h.startswith("<"):
            continue
        hs = stage(h)
        if hs != "." and hs not in ALLOWED[s]:
            bad("%s:%d includes %s (up or across a layer)" % (p, n, h))
decl = {s: set() for s in STAGES}
for p in files:
    if stage(p) in decl and p.endswith(".h"):
        decl[stage(p)] |= declared(p)
for s in STAGES:
    above = set()
    for o in STAGES:
        if o not in ALLOWED[s]:
            above |= decl[o]
    own = set()  # a function the folder defines itself (static, same name)
    for p in in_stage(s):
        own |= set(re.findall(r"^[A-Za-z_][^;{}=#]*?\b(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*\{",
                              code[p], re.M))
    uses(set(in_stage(s)), above - own, "%s/ names a function of a folder above or "
         "beside it" % s, calls=True)
# collect/ reaches no analyze/ header even through schema/'s (the environment
# limits it judges by are the root's envlimits.h).
for p in sorted(in_stage("collect")):
    for h in sorted(x for x in reach(p) if stage(x) == "analyze"):
        bad("%s reaches %s (collect/ above analyze/)" % (p, h))
# The root's lower files stand in a line, xalloc.c < strbuf.c < escape.c < util.c:
# none calls a file at or after its own place.
line = ["xalloc", "strbuf", "escape", "util"]
names = {}
for f in line:
    names[f] = declared(f + ".c") | (declared(f + ".h") if f + ".h" in files else set())
names["util"] |= declared("tpsdb.h") - names["xalloc"]
xal = {m for m in names["util"] if m.startswith("tps_x")}
names["util"] -= xal
names["xalloc"] |= xal
for i, f in enumerate(line):
    later = set()
    for g in line[i + 1:]:
        later |= names[g]
    uses({f + ".c"}, later - names[f], "%s.c calls up the root's line" % f, calls=True)

# 7. No circles: inside a folder the arrows point one way too. A module is x.c,
# x.h and its private x_int.h; a ring is named as "a -> b -> a".
def module(p):
    m = p[:-2]
    return m[:-4] if m.endswith("_int") else m


def cycles(edges):
    """The rings of a graph ({node: {node, ...}}), by a walk in depth that names
    each arrow leading back onto its own path."""
    out, state, path = [], {}, []

    def walk(n):
        state[n] = 1
        path.append(n)
        for t in sorted(edges.get(n, ())):
            if state.get(t) == 1:
                out.append(" -> ".join(path[path.index(t):] + [t]))
            elif not state.get(t):
                walk(t)
        path.pop()
        state[n] = 2

    for n in sorted(edges):
        if not state.get(n):
            walk(n)
    return out


# The functions a file defines for others: at the margin, with a body, not static.
DEFN = re.compile(r"^([A-Za-z_][^;{}=#\n]*?)\b(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*\{", re.M)


def exported(p):
    return {m.group(2) for m in DEFN.finditer(code[p]) if not m.group(1).startswith("static")}


# 7a. No include ring among the modules, cmd/'s too (opts.c holds the rows' parsers,
# so filter_opts.c, whose types opts.h names, includes nothing of opts).
edges = {}
for p in sorted(p for p in files if p != "main.c"):
    for _, h in incs[p]:
        if not h.startswith("<") and module(h) != module(p):
            edges.setdefault(module(p), set()).add(module(h))
for c in cycles(edges):
    bad("an include cycle: " + c)
# 7b. No call ring among the files, cmd/'s and main.c too: where a file calls a
# function another defines, that one calls nothing back, directly or round a
# longer ring.
owner = {}
CFILES = sorted(p for p in files if p.endswith(".c"))
for p in CFILES:
    for n in exported(p):
        owner[n] = p
edges = {}
r = names_re({re.escape(n) for n in owner})
for p in CFILES:
    for m in r.finditer(code[p]):
        if owner[m.group(0)] != p and called(code[p], m):
            edges.setdefault(p, set()).add(owner[m.group(0)])
for c in cycles(edges):
    bad("a call cycle: " + c)
# 7c. The three rings issue 40 broke, by name. The cell set's one pooling rule
# names nothing of the files above it (the run comparison, run_mismatch(), is its
# own), not even through a header.
uses({"analyze/cellset.c", "analyze/cellset.h"}, {r"parity_\w+", r"PARITY_\w+", r"speedup_\w+"},
     "the cell set names parity or speedup above it")
for p in ("analyze/cellset.c", "analyze/cellset.h"):
    for h in sorted(reach(p) & {"analyze/parity.h", "analyze/speedup.h"}):
        bad("%s reaches %s (the cell set above parity)" % (p, h))
# import's parts (collect/import_*.c) use nothing the driver, import.c, defines:
# the records and the error line they share are import_rec.c's.
uses({p for p in files if re.match(r"collect/import_\w+\.c$", p)}, exported("collect/import.c"),
     "an import part calls back into collect/import.c")
# The study's steps (analyze/study_*.c, the figures among them) use nothing of
# its driver, analyze/study.c.
uses({p for p in files if re.match(r"analyze/study_\w+\.c$", p)}, exported("analyze/study.c"),
     "a study step calls back into analyze/study.c")
# 7d. Every release's spelling of a speculative knob is one table,
# collect/spec_knobs.c: no other file writes one in a string.
for p in sorted(ALL - {"collect/spec_knobs.c"}):
    for m in re.finditer(r'"(?:-md|--model-draft|--spec-draft-[a-z-]*|--draft(?:-[a-z-]*)?)["= ]',
                         nc[p]):
        n = lineno(nc[p], m.start())
        bad("%s:%d: a speculative flag spelled outside collect/spec_knobs.c: %s"
            % (p, n, line_of(p, n)))

sys.exit(1 if fails else 0)
PY

# 1b. Options store themselves (cmd/opts.h): a command declares rows, no getopt
# array of its own; nothing in cmd/ but opts.c assigns, copies or parses optarg by
# hand, however the statement is spread over lines or commented; and a case of an
# option's value is a callback row's (OPT_CALLBACK(..., OPT_X) in the same file):
# the options that do more than store.
for f in cmd/*.c cmd/*.h; do
	[ "$f" = cmd/opts.c ] && continue
	flat=$(perl -0pe 's{/\*.*?\*/}{ }gs; s{//[^\n]*}{}g; s{\s+}{ }g' "$f")
	! echo "$flat" | grep -qE '\b(no|required|optional)_argument\b' ||
		bad "$f declares its own getopt table"
	! echo "$flat" | grep -qE '([^=!<>]=|\breturn) *(\([^()]*\) *)?optarg\b' ||
		bad "$f stores optarg by hand"
	! echo "$flat" | grep -qE '\b(str[a-z]*cmp|strn?cpy|strn?dup|tps_x?strn?dup|mem(cpy|move)|tps_parse_[a-z0-9_]+|strto[a-z]+|ato[a-z]+|sscanf|[a-z_]*_add|[a-z_]*_set) *\(([^;()]*,)? *optarg *[,)]' ||
		bad "$f parses or copies optarg by hand"
	for v in $(echo "$flat" | grep -oE '\bcase (OPT|FILTER_OPT)_[A-Z0-9_]+' | sed 's/^case //' | sort -u); do
		echo "$flat" | grep -qE "OPT_CALLBACK\([^()]*, *$v *\)" ||
			bad "$f: 'case $v' is not a callback row's"
	done
done


# 6. No folder holds more than 30% of the lines of code (its subfolders counted).
total=$(find ./*.[ch] cmd collect schema analyze reports \( -name '*.[ch]' -o -name '*.sql' \) \
	-exec cat {} + | wc -l)
for dir in cmd collect schema analyze reports; do
	lines=$(find "$dir" -name '*.[ch]' -exec cat {} + | wc -l)
	if [ $((lines * 100)) -gt $((total * 30)) ]; then
		bad "$dir/ holds $lines of $total lines, more than 30%"
	fi
done

[ "$fail" -eq 0 ] || exit 1
echo "layers: ok"
