/* config.c: llama-bench configuration texts compared across versions: one spelling
 * per value, ignored keys dropped, and the keys two texts differ in (the nearest
 * pair of cells two sides hold is config_near.c's). A text is "<test> key=value
 * key=value ...", space separated, keys in a fixed order (collect/import.c writes
 * it). */
#include "analyze/config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tpsdb.h"

static const char *const keys[] = {
	"fa", "ngl", "b", "ub", "ctk", "ctv", "t", "sm", "nkvo", "backend",
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

const char *config_key(size_t i)
{
	return i < N_KEYS ? keys[i] : NULL;
}

const char *config_keys(void)
{
	return "fa, ngl, b, ub, ctk, ctv, t, sm, nkvo, backend";
}

static int known_key(const char *k, size_t len)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (strlen(keys[i]) == len && !strncmp(keys[i], k, len))
			return 1;
	return 0;
}

int config_keys_check(const char *list, char *bad, size_t bad_len)
{
	const char *p = list;

	for (;;) {
		size_t len = strcspn(p, ",");

		if (!known_key(p, len)) {
			size_t n = len < bad_len - 1 ? len : bad_len - 1;
			memcpy(bad, p, n);
			bad[n] = '\0';
			return -1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

/* Whether the key of token tok (up to its '=', klen bytes) is in the list. */
static int in_list(const char *list, const char *tok, size_t klen)
{
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",");
		if (len == klen && !strncmp(p, tok, klen))
			return 1;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

static const char *spelling(const char *v, size_t len)
{
	static const char *const one[] = { "true", "on", "yes" };
	static const char *const zero[] = { "false", "off", "no" };
	size_t i;

	for (i = 0; i < 3; i++) {
		if (strlen(one[i]) == len && !strncasecmp(v, one[i], len))
			return "1";
		if (strlen(zero[i]) == len && !strncasecmp(v, zero[i], len))
			return "0";
	}
	return NULL;
}

char *config_canon(const char *config, const char *ignore)
{
	const char *p = config ? config : "";
	size_t cap = strlen(p) + 1, n = 0;
	char *out = tps_xmalloc(cap);

	while (*p) {
		size_t len = strcspn(p, " "), klen;
		const char *eq = memchr(p, '=', len), *sp;

		klen = eq ? (size_t)(eq - p) : len;
		if (!(eq && ignore && in_list(ignore, p, klen))) {
			size_t vlen = eq ? len - klen - 1 : 0;
			size_t take = len;

			sp = eq ? spelling(eq + 1, vlen) : NULL;
			if (sp)
				take = klen + 1;
			if (n) {
				out[n++] = ' ';
			}
			memcpy(out + n, p, take);
			n += take;
			if (sp) {
				/* "1" or "0" is never longer than the word it replaces. */
				out[n++] = *sp;
			}
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	out[n] = '\0';
	return out;
}

/* The test of a configuration text: its first token, *len bytes. */
static const char *test_of(const char *config, size_t *len)
{
	*len = strcspn(config, " ");
	return config;
}

int config_measures(const char *config, int m)
{
	size_t len;
	const char *t;

	if (!config || !*config)
		return 1;
	t = test_of(config, &len);
	if (memchr(t, '+', len))
		return 0;
	if (len > 2 && !strncmp(t, "pp", 2))
		return m == 0;
	if (len > 2 && !strncmp(t, "tg", 2))
		return m == 1;
	return 1;
}

void config_value(const char *config, const char *k, char *buf, size_t len)
{
	const char *p = config;
	size_t kl = strlen(k);

	while (*p) {
		size_t tl = strcspn(p, " ");
		if (tl > kl && p[kl] == '=' && !strncmp(p, k, kl)) {
			size_t vl = tl - kl - 1;
			if (vl > len - 1)
				vl = len - 1;
			memcpy(buf, p + kl + 1, vl);
			buf[vl] = '\0';
			return;
		}
		p += tl;
		while (*p == ' ')
			p++;
	}
	tps_copy(buf, len, "-", SIZE_MAX);
}

unsigned config_differ(const char *a, const char *b)
{
	char va[64], vb[64];
	unsigned bits = 0;
	size_t i;

	for (i = 0; i < N_KEYS; i++) {
		config_value(a, keys[i], va, sizeof(va));
		config_value(b, keys[i], vb, sizeof(vb));
		if (strcmp(va, vb))
			bits |= 1u << i;
	}
	return bits;
}

void config_collect(char **acc, const char *config, const char *ignore)
{
	const char *p = config ? config : "";

	while (*p) {
		size_t len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);

		if (eq && in_list(ignore, p, (size_t)(eq - p))) {
			char *tok = tps_xstrndup(p, len);
			const char *q = *acc ? *acc : "";
			int seen = 0;

			while (*q && !seen) {
				size_t l = strcspn(q, " ");
				seen = l == len && !strncmp(q, tok, len);
				q += l;
				while (*q == ' ')
					q++;
			}
			if (!seen) {
				char *t = *acc ? tps_xasprintf("%s %s", *acc, tok) : tps_xstrdup(tok);
				free(*acc);
				*acc = t;
			}
			free(tok);
		}
		p += len;
		while (*p == ' ')
			p++;
	}
}

static int key_index(const char *k, size_t len)
{
	size_t i;

	for (i = 0; i < N_KEYS; i++)
		if (strlen(keys[i]) == len && !strncmp(keys[i], k, len))
			return (int)i;
	return -1;
}

unsigned config_varying(const char *const *cfg, size_t n)
{
	char v0[64], v[64];
	unsigned bits = 0;
	size_t i, j, first = n;

	for (j = 0; j < n; j++) {
		if (cfg[j] && *cfg[j]) {
			first = j;
			break;
		}
	}
	for (i = 0; i < N_KEYS && first < n; i++) {
		config_value(cfg[first], keys[i], v0, sizeof(v0));
		for (j = first + 1; j < n; j++) {
			if (!cfg[j] || !*cfg[j])
				continue;
			config_value(cfg[j], keys[i], v, sizeof(v));
			if (strcmp(v, v0)) {
				bits |= 1u << i;
				break;
			}
		}
	}
	return bits;
}

/* The tokens of config that go to the label (want 1: the test, varying keys and
 * unknown ones) or to the constant line (want 0: the other known keys). */
static char *split(const char *config, unsigned varying, int want)
{
	const char *p = config ? config : "";
	char *out = tps_xmalloc(strlen(p) + 1);
	size_t n = 0;

	while (*p) {
		size_t len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);
		int idx = eq ? key_index(p, (size_t)(eq - p)) : -1;
		int label = idx < 0 || (varying & (1u << idx));

		if (label == want) {
			if (n)
				out[n++] = ' ';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	out[n] = '\0';
	return out;
}

char *config_label(const char *config, unsigned varying)
{
	return split(config, varying, 1);
}

char *config_constant(const char *config, unsigned varying)
{
	return split(config, varying, 0);
}
