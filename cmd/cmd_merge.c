/* cmd_merge.c: `tpsdb merge`, the runs of another host's store brought into this one,
 * deduplicated by run uuid so that merging again changes nothing. The other file is
 * read through an in-memory copy (schema/snapshot.c) and never written; this store
 * takes all of the new runs in one transaction or none of them. */
#include "schema/record_check.h"
#include "schema/snapshot.h"
#include "schema/store.h"
#include "cmd/opts.h"
#include "tpsdb.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

struct merge_count {
	struct store *to;
	long merged, present;
};

static int on_run(const struct run_rec *r, const struct sample_rec *smp, size_t n, void *arg)
{
	struct merge_count *mc = arg;
	int rc = store_run_restore(mc->to, r, smp, n);

	if (rc < 0)
		return -1;
	if (rc == 1)
		mc->present++;
	else
		mc->merged++;
	return 0;
}

/* Import's rules for an export line (record_check_whole), so that merge takes
 * nothing that the merged store's export could not give back. */
static int check_run(const struct run_rec *r, const struct sample_rec *smp, size_t n, void *arg)
{
	char why[256];

	if (record_check_whole(r, smp, n, why, sizeof(why)) < 0)
		return tps_error("'%s': run %s: %s; nothing was merged", (const char *)arg,
				 r->uuid, why);
	return 0;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	if (stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cmd_merge(int argc, char **argv, struct tps_ctx *ctx)
{
	const struct cmd_option opts[] = { OPT_END };
	struct merge_count mc = { 0 };
	struct store *from = NULL, *to;
	const char *other;
	int ret;

	if ((ret = cmd_opts_parse(&cmd_merge_entry, opts, argc, argv)) >= 0)
		return ret;
	ret = TPS_EXIT_ERROR;
	if (optind >= argc)
		return tps_usage_error(usage_merge, "no store to merge");
	if (optind + 1 < argc)
		return tps_usage_error(usage_merge,
				       "one store at a time, not '%s' too", argv[optind + 1]);
	other = argv[optind];
	if (same_file(other, ctx->db_path))
		return tps_usage_error(usage_merge, "cannot merge '%s' into itself", other);
	/* The other store first: a refused merge must not create an empty target. */
	if (!(from = store_open_copy(other)))
		goto out;
	/* Every run is checked before the target is opened: a refused source writes
	 * nothing, not even an empty new store. */
	if (store_runs_foreach(from, NULL, check_run, (void *)other) != 0)
		goto out;
	if (!(to = tps_ctx_store(ctx)))
		goto out;
	mc.to = to;
	if (store_begin(to) < 0)
		goto out;
	if (store_runs_foreach(from, NULL, on_run, &mc) != 0 || store_commit(to) < 0) {
		store_rollback(to); /* the error line is printed; nothing landed */
		goto out;
	}
	printf("merged %ld runs, %ld already present\n", mc.merged, mc.present);
	ret = TPS_EXIT_OK;
out:
	store_close(from);
	return ret;
}

CMD_ENTRY(merge, "bring in the runs of another store", CMD_OPERANDS);
