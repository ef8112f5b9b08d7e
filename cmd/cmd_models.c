/* cmd_models.c: `tpsdb models`, the model registry (every distinct GGUF as measured,
 * the hosts that ran it and how often) and its identity alarms. An alarm fails the
 * command: the seed study once compared two "identical" files that were not. */
#include "reports/models_write.h"
#include "schema/catalog.h"
#include "schema/store.h"
#include "cmd/opts.h"
#include "tpsdb.h"

int cmd_models(int argc, char **argv, struct tps_ctx *ctx)
{
	enum out_format fmt = OUT_TEXT;
	struct catalog_model *m = NULL;
	struct catalog_alarm *a = NULL;
	struct store *s;
	size_t nm = 0, na = 0;
	const struct cmd_option opts[] = { OPT_FORMAT(&fmt), OPT_END };
	int ret;

	if ((ret = cmd_opts_parse(&cmd_models_entry, opts, argc, argv)) >= 0)
		return ret;
	ret = TPS_EXIT_ERROR;
	/* The registry reads a few pages; the quick check vouches for the rest. */
	if (!(s = tps_ctx_store(ctx)) || store_quick_check(s) < 0)
		goto out;
	if (catalog_models(s, &m, &nm) < 0 || catalog_alarms(s, &a, &na) < 0)
		goto out;
	if (fmt == OUT_JSON) {
		if (models_write_json(stdout, m, nm, a, na) < 0)
			goto out;
	} else {
		models_write(stdout, m, nm, a, na, format_table(fmt));
	}
	ret = na ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	catalog_models_free(m, nm);
	catalog_alarms_free(a, na);
	return ret;
}

CMD_ENTRY(models, "the model registry, with identity alarms", CMD_READONLY);
