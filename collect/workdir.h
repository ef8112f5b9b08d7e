/* workdir.h: the directories a collect session makes on disk: the out dir for the
 * server logs and summary.txt, and a fresh temporary HOME for each engine that asks
 * for one (so that a llamafile cannot load a GPU library another build cached). */
#ifndef COLLECT_WORKDIR_H
#define COLLECT_WORKDIR_H

struct plan;

/* Creates the out dir (and its parents): given, or ./tpsdb-collect-<UTC time> when
 * given is NULL. Returns its absolute path (the path as made when realpath fails),
 * caller frees; NULL after an error line when it cannot be created. */
char *workdir_make_out(const char *given);
/* Gives each engine with fresh_home a new directory under $TMPDIR (else /tmp) as
 * its home. 0, or -1 after an error line; the homes made so far stay in p for
 * workdir_remove_homes(). */
int workdir_make_homes(struct plan *p);
/* Deletes, with their contents, the fresh homes workdir_make_homes() made. The
 * plan keeps the (now stale) paths, which plan_release() frees. */
void workdir_remove_homes(const struct plan *p);

#endif
