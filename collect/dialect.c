/* dialect.c: an engine's spellings of the speculative knobs, read from its --help,
 * and the one rule that spells a spec manifest line with them. The help text, not
 * the dialect, is what the cache keeps: a better reading of it needs no new cache. */
#include "collect/dialect.h"
#include "collect/filehash.h"
#include "collect/manifest.h"
#include "proc.h"
#include "strbuf.h"
#include "tpsdb.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An option's spelling: '-' or "--", then a letter. "-----" section rules are not. */
static int is_spelling(const char *s, size_t n)
{
	size_t d = 0;

	while (d < n && d < 2 && s[d] == '-')
		d++;
	return d >= 1 && d < n && isalpha((unsigned char)s[d]);
}

static void add_flag(struct dialect *d, const char *s, size_t n)
{
	d->flags = tps_xrealloc(d->flags, (d->n_flags + 2) * sizeof(*d->flags));
	d->flags[d->n_flags++] = tps_xstrndup(s, n);
	d->flags[d->n_flags] = NULL;
}

static void add_type(char ***types, const char *s, size_t n)
{
	size_t k = 0;

	while (*types && (*types)[k])
		k++;
	*types = tps_xrealloc(*types, (k + 2) * sizeof(**types));
	(*types)[k] = tps_xstrndup(s, n);
	(*types)[k + 1] = NULL;
}

/* --spec-type's value hint: "none,draft-simple,..." or "[none|ngram-cache|...]". */
static void parse_types(struct dialect *d, const char *hint, size_t n)
{
	size_t i = 0, start;

	d->types = tps_xcalloc(1, sizeof(*d->types));
	while (i < n) {
		while (i < n && strchr("[]|,", hint[i]))
			i++;
		start = i;
		while (i < n && !strchr("[]|,", hint[i]))
			i++;
		if (i > start)
			add_type(&d->types, hint + start, i - start);
	}
}

/* Where the description of the option on line begins: after the head and two
 * blanks, or the next line when the head fills this one. */
static const char *description(const char *head_end, const char *eol)
{
	const char *p = head_end;

	while (p < eol && *p == ' ')
		p++;
	if (p < eol)
		return p;
	p = *eol ? eol + 1 : eol;
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* What the description [p, end) says after "(default: ", up to its ")"; NULL
 * when none. Caller frees. */
static char *default_of(const char *p, const char *end)
{
	static const char key[] = "(default: ";
	const size_t n = sizeof(key) - 1;
	const char *v, *close;

	for (; p + n <= end; p++) {
		if (strncmp(p, key, n))
			continue;
		v = p + n;
		for (close = v; close < end && *close != ')' && *close != '\n'; close++)
			;
		return close < end && *close == ')' && close > v ?
		       tps_xstrndup(v, (size_t)(close - v)) : NULL;
	}
	return NULL;
}

/* The knobs whose spellings name: each takes the option's default, once. */
static void knob_defaults(struct dialect *d, const char *const *names, const size_t *lens,
			  size_t n, const char *desc, const char *end)
{
	for (size_t i = 0; i < n; i++) {
		char *w = tps_xstrndup(names[i], lens[i]);
		int k = spec_knob_of_flag(w);

		free(w);
		if (k >= 0 && !d->deflt[k])
			d->deflt[k] = default_of(desc, end);
	}
}

/* One option line: its spellings ("-a, --bee, --cee HINT  description"), kept
 * unless its description says it has been removed; its description runs to
 * block_end (the indented lines under it). */
static void parse_option(struct dialect *d, const char *line, const char *eol,
			 const char *block_end)
{
	const char *p = line, *tok, *hint = NULL, *hint_end = NULL, *desc;
	const char *type_flag = spec_knobs[SPEC_KNOB_TYPE].flags[0];
	const char *names[16];
	size_t lens[16], n = 0, i;

	for (;;) {
		tok = p;
		while (p < eol && *p != ' ' && *p != ',')
			p++;
		if (!is_spelling(tok, (size_t)(p - tok)) || n == 16)
			break;
		names[n] = tok;
		lens[n++] = (size_t)(p - tok);
		if (p < eol && *p == ',') {
			p++;
			while (p < eol && *p == ' ')
				p++;
			continue;
		}
		/* One blank then a word: the value hint; two or more: the description. */
		if (p + 1 < eol && p[0] == ' ' && p[1] != ' ') {
			hint = p + 1;
			hint_end = hint;
			while (hint_end < eol && *hint_end != ' ')
				hint_end++;
			p = hint_end;
		}
		break;
	}
	if (!n)
		return;
	desc = description(p, eol);
	if (!strncmp(desc, "the argument has been removed", 29))
		return;
	knob_defaults(d, names, lens, n, desc, block_end);
	for (i = 0; i < n; i++) {
		add_flag(d, names[i], lens[i]);
		if (lens[i] == strlen(type_flag) && !strncmp(names[i], type_flag, lens[i]) &&
		    hint && !d->types)
			parse_types(d, hint, (size_t)(hint_end - hint));
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dialect_accepts(const struct dialect *d, const char *flag)
{
	return d->n_flags && bsearch(&flag, d->flags, d->n_flags, sizeof(*d->flags),
				     cmp_str) != NULL;
}

static const char *first_accepted(const struct dialect *d, const char *const *flags)
{
	for (size_t i = 0; flags[i]; i++)
		if (dialect_accepts(d, flags[i]))
			return flags[i];
	return NULL;
}

/* Where the block of the option on line (ending at eol) ends: after the
 * indented lines that go on with its description. */
static const char *block_end(const char *eol)
{
	const char *p = eol;

	while (*p && (p[1] == ' ' || p[1] == '\t')) {
		p = strchr(p + 1, '\n');
		if (!p)
			return eol + strlen(eol);
	}
	return p;
}

int dialect_parse(const char *help, struct dialect *d)
{
	const char *line, *eol;
	int k;

	memset(d, 0, sizeof(*d));
	for (line = help; line && *line; line = *eol ? eol + 1 : NULL) {
		eol = strchr(line, '\n');
		if (!eol)
			eol = line + strlen(line);
		if (*line == '-')
			parse_option(d, line, eol, block_end(eol));
	}
	if (!d->n_flags) {
		dialect_release(d);
		return -1;
	}
	qsort(d->flags, d->n_flags, sizeof(*d->flags), cmp_str);
	for (k = 0; k < SPEC_N_KNOBS; k++) {
		d->flag[k] = first_accepted(d, spec_knobs[k].flags);
		if (!d->flag[k]) { /* a default of a removed option is no default */
			free(d->deflt[k]);
			d->deflt[k] = NULL;
		}
	}
	if (!dialect_accepts(d, spec_knobs[SPEC_KNOB_TYPE].flags[0])) {
		manifest_free_args(d->types);
		d->types = NULL;
	}
	return 0;
}

void dialect_release(struct dialect *d)
{
	if (!d)
		return;
	manifest_free_args(d->flags);
	manifest_free_args(d->types);
	for (int k = 0; k < SPEC_N_KNOBS; k++)
		free(d->deflt[k]);
	memset(d, 0, sizeof(*d));
}

void dialect_free(struct dialect *d)
{
	dialect_release(d);
	free(d);
}

static int knows_type(const struct dialect *d, const char *type)
{
	for (size_t i = 0; d->types && d->types[i]; i++)
		if (!strcmp(d->types[i], type))
			return 1;
	return 0;
}

static void push(char ***argv, size_t *argc, const char *w)
{
	*argv = tps_xrealloc(*argv, (*argc + 2) * sizeof(**argv));
	(*argv)[(*argc)++] = tps_xstrdup(w);
	(*argv)[*argc] = NULL;
}

/* The types d's --spec-type takes, for an error line: "a, b, c". Caller frees. */
static char *type_list(const struct dialect *d)
{
	struct strbuf sb = { 0 };

	strbuf_put(&sb, "", 0);
	for (size_t i = 0; d->types[i]; i++) {
		if (i)
			strbuf_put(&sb, ", ", 2);
		strbuf_put(&sb, d->types[i], strlen(d->types[i]));
	}
	return sb.p;
}

/* The terms' words: --spec-type and the draft model. -1 with err when d lacks one. */
static int spell_terms(const struct dialect *d, const char *engine, const struct spec_terms *t,
		       char ***argv, size_t *argc, char *err, size_t errlen)
{
	if (!d)
		return tps_fail(err, errlen, "engine '%s': cannot spell spec=%s, its --help lists "
				"no option", engine, t->type);
	if (knows_type(d, t->type)) {
		push(argv, argc, spec_knobs[SPEC_KNOB_TYPE].flags[0]);
		push(argv, argc, t->type);
	} else if (strcmp(t->type, "draft-simple") || !d->flag[SPEC_KNOB_DRAFTER]) {
		/* Before --spec-type knew draft-simple, a draft model alone was it. */
		char *list = d->types ? type_list(d) : NULL;
		int r = tps_fail(err, errlen, "engine '%s' has no spec=%s: %s%s", engine, t->type,
				 list ? "its --spec-type takes " : "its --help lists no --spec-type",
				 list ? list : "");
		free(list);
		return r;
	}
	if (t->drafter) {
		if (!d->flag[SPEC_KNOB_DRAFTER])
			return tps_fail(err, errlen, "engine '%s' has no drafter=: its --help lists "
					"none of %s", engine, spec_knob_flag_list(SPEC_KNOB_DRAFTER));
		push(argv, argc, d->flag[SPEC_KNOB_DRAFTER]);
		push(argv, argc, t->drafter);
	}
	return 0;
}

/* The settled knobs' words: each value settle names, with d's flag. */
static int spell_settled(const struct dialect *d, const char *engine,
			 const char *const *settle, char ***argv, size_t *argc, char *err,
			 size_t errlen)
{
	for (int k = SPEC_SETTLED_FIRST; settle && k < SPEC_N_KNOBS; k++) {
		if (!settle[k])
			continue;
		if (!d->flag[k])
			return tps_fail(err, errlen, "engine '%s' has no %s: its --help lists none "
					"of %s", engine, spec_knobs[k].term,
					spec_knob_flag_list((enum spec_knob)k));
		push(argv, argc, d->flag[k]);
		push(argv, argc, settle[k]);
	}
	return 0;
}

int dialect_spell(const struct dialect *d, const char *engine, char *const *words,
		  const struct spec_terms *t, int64_t n_max, const char *const *settle,
		  char ***argv, size_t *argc, char *err, size_t errlen)
{
	size_t start = *argc, i;
	const char *flag = d && d->flag[SPEC_KNOB_N_MAX] ? d->flag[SPEC_KNOB_N_MAX] :
			   spec_knobs[SPEC_KNOB_N_MAX].flags[0];
	char num[32];

	if (t->given && spell_terms(d, engine, t, argv, argc, err, errlen) < 0)
		goto fail;
	for (i = t->n; words && words[i]; i++)
		push(argv, argc, words[i]);
	/* A raw line keeps its words; only n_max, tpsdb's own knob, is spelled. */
	if (t->given && (!d || !d->flag[SPEC_KNOB_N_MAX])) {
		tps_fail(err, errlen, "engine '%s' has no n_max: its --help lists none of %s",
			 engine, spec_knob_flag_list(SPEC_KNOB_N_MAX));
		goto fail;
	}
	snprintf(num, sizeof(num), "%lld", (long long)n_max);
	push(argv, argc, flag);
	push(argv, argc, num);
	if (t->given && spell_settled(d, engine, settle, argv, argc, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	while (*argc > start) {
		free((*argv)[--(*argc)]);
		(*argv)[*argc] = NULL;
	}
	return -1;
}

char *dialect_cache_dir(void)
{
	const char *v = getenv("TPSDB_CACHE");

	if (v && *v)
		return tps_xstrdup(v);
	v = getenv("HOME");
	return v && *v ? tps_xasprintf("%s/.cache/tpsdb", v) : NULL;
}

int dialect_check_text(const char *text, size_t len, char *err, size_t errlen)
{
	const char *nul = memchr(text, '\0', len), *p = text, *end = text + len, *eol;
	size_t line = 1;

	if (nul)
		return tps_fail(err, errlen, "a NUL byte at byte %zu", (size_t)(nul - text) + 1);
	for (; p < end; p = eol + 1, line++) {
		if (!(eol = memchr(p, '\n', (size_t)(end - p))))
			eol = end;
		if ((size_t)(eol - p) > DIALECT_HELP_LINE_MAX)
			return tps_fail(err, errlen, "line %zu is longer than %u bytes", line,
					DIALECT_HELP_LINE_MAX);
	}
	return 0;
}

/* What a cache entry was made from: its first line. */
#define CACHE_MAGIC "tpsdb-dialect-cache "
#define CACHE_HEADER_MAX 256

/* The header of an entry for the binary (sha256 hex, size bytes) up to and
 * without its help byte count. Caller frees. */
static char *cache_header_head(const char *hex, int64_t bytes)
{
	return tps_xasprintf(CACHE_MAGIC "%d binary-sha256=%s binary-bytes=%lld help-bytes=",
			     DIALECT_CACHE_FORMAT, hex, (long long)bytes);
}

static const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISDIR(m) ? "a directory" :
	       S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Reads at most max bytes of the regular file at path without following a link or
 * waiting on a FIFO. NULL with why, or with why empty when there is no file. */
static char *cache_read(const char *path, size_t max, size_t *len, char *why, size_t whylen)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;
	int fd;

	why[0] = '\0';
	/* O_NONBLOCK: a FIFO opens at once (and is then refused by its mode), where a
	 * blocking open waits for a writer for ever. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP)
			tps_fail(why, whylen, "a symbolic link");
		else if (errno != ENOENT && errno != ENOTDIR)
			tps_fail(why, whylen, "cannot open it: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		tps_fail(why, whylen, "cannot stat it: %s", strerror(errno));
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		tps_fail(why, whylen, "%s, not a regular file", file_kind(st.st_mode));
		goto fail;
	}
	if ((uint64_t)st.st_size > max) {
		tps_fail(why, whylen, "%lld bytes, more than an entry holds",
			 (long long)st.st_size);
		goto fail;
	}
	buf = tps_xmalloc((size_t)st.st_size + 2);
	while (got <= (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tps_fail(why, whylen, "cannot read it: %s", strerror(errno));
			goto fail;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != (size_t)st.st_size) {
		tps_fail(why, whylen, "it changed while it was read");
		goto fail;
	}
	buf[got] = '\0';
	*len = got;
	close(fd);
	return buf;
fail:
	free(buf);
	close(fd);
	return NULL;
}

/* A parse of text, only to tell whether it reads: 1 when it lists options. */
static int parses(const char *text)
{
	struct dialect d;

	if (dialect_parse(text, &d) < 0)
		return 0;
	dialect_release(&d);
	return 1;
}

/* The help text kept at path for the binary (hex, bytes): caller frees, *len its
 * length. NULL when there is none to use: why empty when nothing is there or the
 * entry is of another cache format (an older tpsdb's headerless text that still
 * reads, or another version's), else why says what is wrong with it. The text is
 * checked as a fresh --help is (dialect_check_text()) and must parse. */
static char *cache_get(const char *path, const char *hex, int64_t bytes, size_t *len, char *why,
		       size_t whylen)
{
	char *buf, *head = NULL, *text = NULL, *end;
	const char *eol, *num;
	size_t got = 0, hl;
	long long want;
	long version;

	buf = cache_read(path, DIALECT_HELP_MAX + CACHE_HEADER_MAX, &got, why, whylen);
	if (!buf)
		return NULL;
	if (!got) {
		tps_fail(why, whylen, "empty");
		goto out;
	}
	if (strncmp(buf, CACHE_MAGIC, strlen(CACHE_MAGIC))) {
		/* tpsdb before format 2 kept the bare text: asked again quietly. */
		if (memchr(buf, '\0', got) || !parses(buf))
			tps_fail(why, whylen, "no tpsdb header, and not a --help that reads");
		goto out;
	}
	eol = memchr(buf, '\n', got < CACHE_HEADER_MAX ? got : CACHE_HEADER_MAX);
	num = buf + strlen(CACHE_MAGIC);
	if (!eol || memchr(buf, '\0', (size_t)(eol - buf)) || !isdigit((unsigned char)*num)) {
		tps_fail(why, whylen, "a damaged header");
		goto out;
	}
	version = strtol(num, NULL, 10);
	if (version != DIALECT_CACHE_FORMAT)
		goto out; /* another tpsdb's format: replaced quietly */
	head = cache_header_head(hex, bytes);
	hl = strlen(head);
	if ((size_t)(eol - buf) < hl || strncmp(buf, head, hl)) {
		tps_fail(why, whylen, "its header is not of this binary (sha256 %s, %lld bytes)",
			 hex, (long long)bytes);
		goto out;
	}
	errno = 0;
	want = strtoll(buf + hl, &end, 10);
	if (end != eol || end == buf + hl || errno || want < 0) {
		tps_fail(why, whylen, "a damaged header");
		goto out;
	}
	if ((size_t)want != got - (size_t)(eol + 1 - buf)) {
		tps_fail(why, whylen, "cut or grown: %zu bytes of help where its header says %lld",
			 got - (size_t)(eol + 1 - buf), want);
		goto out;
	}
	*len = (size_t)want;
	if (dialect_check_text(eol + 1, *len, why, whylen) < 0)
		goto out;
	if (!parses(eol + 1)) {
		tps_fail(why, whylen, "its help lists no option");
		goto out;
	}
	text = tps_xstrndup(eol + 1, *len);
out:
	free(head);
	free(buf);
	return text;
}

static int write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Keeps text for the binary (hex, bytes) as path, whole: a temporary sibling
 * written and synced, then renamed over it, so a reader never sees half an entry
 * and a crash leaves the old one or the new. A cache, so any failure only leaves
 * it unwritten. */
static void cache_put(const char *cache, const char *dir, const char *path, const char *hex,
		      int64_t bytes, const char *text, size_t len)
{
	char *tmp = tps_xasprintf("%s.XXXXXX", path), *head = cache_header_head(hex, bytes);
	char num[32];
	int fd, bad, dfd;

	(void)mkdir(cache, 0755);
	(void)mkdir(dir, 0755);
	if ((fd = mkstemp(tmp)) < 0)
		goto out;
	snprintf(num, sizeof(num), "%zu\n", len);
	bad = write_all(fd, head, strlen(head)) < 0 || write_all(fd, num, strlen(num)) < 0 ||
	      write_all(fd, text, len) < 0 || fsync(fd) < 0;
	bad |= close(fd) != 0;
	if (bad || rename(tmp, path) < 0) {
		unlink(tmp);
		goto out;
	}
	/* The rename itself, made to last. */
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
out:
	free(head);
	free(tmp);
}

/* Runs `real --help` into *help (caller frees): 0 ok; -1 with why it cannot be
 * read in err. */
static int ask_help(const char *real, char **help, size_t *len, char *err, size_t errlen)
{
	char *argv[] = { (char *)real, (char *)"--help", NULL };
	char why[256];

	*help = proc_capture_why(argv, tps_env_num("TPSDB_HELP_TIMEOUT", DIALECT_HELP_TIMEOUT_S),
				 DIALECT_HELP_MAX, len, why, sizeof(why));
	if (*help && dialect_check_text(*help, *len, why, sizeof(why)) < 0) {
		free(*help);
		*help = NULL;
	}
	if (!*help)
		return tps_fail(err, errlen, "cannot read its --help (%s): %s", why, real);
	return 0;
}

int dialect_detect(const char *binary, struct dialect **out, char *err, size_t errlen)
{
	char *real = filehash_resolve(binary), *cache = dialect_cache_dir();
	char *dir = NULL, *path = NULL, *help = NULL;
	char hex[65], why[512];
	int64_t bytes = 0;
	size_t len = 0;
	int ret = -1;

	*out = NULL;
	if (!real) {
		tps_fail(err, errlen, "cannot find '%s'", binary);
		goto out;
	}
	if (filehash_compute(real, hex, &bytes) < 0) {
		tps_fail(err, errlen, "cannot hash '%s'", real);
		goto out;
	}
	if (cache) {
		dir = tps_xasprintf("%s/dialect", cache);
		path = tps_xasprintf("%s/%s.help", dir, hex);
		help = cache_get(path, hex, bytes, &len, why, sizeof(why));
		if (!help && why[0])
			tps_warning("dialect cache '%s' is not used, '%s --help' is asked again: %s",
				    path, real, why);
	}
	if (!help) {
		if (ask_help(real, &help, &len, err, errlen) < 0)
			goto out;
		if (!parses(help)) {
			tps_fail(err, errlen, "its --help lists no option");
			ret = 1;
			goto out;
		}
		/* Only a help that parsed is kept: a one-off failure is asked again. */
		if (path)
			cache_put(cache, dir, path, hex, bytes, help, len);
	}
	*out = tps_xcalloc(1, sizeof(**out));
	(void)dialect_parse(help, *out);
	ret = 0;
out:
	free(real);
	free(cache);
	free(dir);
	free(path);
	free(help);
	return ret;
}
