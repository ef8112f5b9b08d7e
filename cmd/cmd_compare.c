/* cmd_compare.c: `tpsdb compare`, the parity table of two engines. Every cell both
 * measured gets a paired verdict per metric (analyze/parity.c) over the cells
 * schema/pair_load.c loads, written by reports/compare_write.c; the exit code is
 * informational (0) unless a cell had to be refused or nothing was comparable (3). */
#include "analyze/config.h"
#include "analyze/parity.h"
#include "cmd/filter_opts.h"
#include "cmd/opts.h"
#include "reports/compare_write.h"
#include "reports/parity.h"
#include "schema/labels.h"
#include "schema/pair_load.h"
#include "tpsdb.h"

#include <string.h>

static const char usage[] =
	"tpsdb compare --ours <engine> --vs <engine> [--model <label>] [--metric pp|tg|both]\n"
	"              [--band <pct>] [--tag <t>] [--ours-tag <t>] [--vs-tag <t>]\n"
	"              [--batch <id>] [--host <name>] [--force] [--strict]\n"
	"              [--ignore-config <key>[,<key>...]]\n"
	"              [--format text|json|md|csv] [--json]";

static const char help[] =
	"Parity deltas between two engines for every model and config cell (model,\n"
	"spec_type, n_max, endpoint) both measured. Each side pools every run of the\n"
	"cell carrying the tag of its latest run (the latest alone when untagged), or\n"
	"every run carrying --tag, --ours-tag, --vs-tag, or of --batch. Each run is one\n"
	"server instance; the k-th run of each side forms round k. Within a round,\n"
	"samples are paired by prompt and repetition; samples flagged for a metric are\n"
	"left out and counted.\n"
	"\n"
	"  --ours <engine>      the engine judged (required)\n"
	"  --vs <engine>        the engine it is judged against (required)\n"
	"  --model <label>      only this model\n"
	"  --metric <m>         pp (prefill), tg (decode) or both (default)\n"
	"  --band <pct>         the band in percent (default 2): the regression margin\n"
	"                       and the parity band\n"
	"  --tag <t>            pick runs by tag on both sides\n"
	"  --ours-tag <t>, --vs-tag <t>   pick runs by tag on one side\n"
	"  --batch <id>         only runs of this collect batch (every run of it pools,\n"
	"                       whatever its tag; ids: 'tpsdb runs', collect's last line)\n"
	"  --host <name>        only runs measured on this host\n"
	"  --force              compare cells whose runs differ in model sha256 or config\n"
	"                       (ctx, n_predict, endpoint, prompt set); loudly warned\n"
	"  --ignore-config <keys>  pair llama-bench cells whose configs differ only in\n"
	"                       these keys (comma list of fa, ngl, b, ub, ctk, ctv, t,\n"
	"                       sm, nkvo, backend), e.g. ngl when one llama-bench wrote\n"
	"                       99 and the other -1; a warning names what was ignored\n"
	"  --strict             exit 1 when a compared cell's runs carry an environment\n"
	"                       finding (host-busy, gpu-contended, gpu-throttled,\n"
	"                       clocks-changed, partial-offload, kv-on-host) or\n"
	"                       degenerate-output samples; without it they are warned\n"
	"  --format <f>         text (default), json, md (a GitHub markdown table:\n"
	"                       answers, 90% interval, mde, rounds in view) or csv\n"
	"                       (the table alone, the same columns as text and md)\n"
	"  --json               the same as --format json: {\"rows\":[...],\"warnings\":[...]}\n"
	"\n"
	"When $GITHUB_STEP_SUMMARY names a file, the markdown is also appended to it (a\n"
	"write error there is a warning).\n"
	"\n"
	"Each row answers one question first: regression, is ours slower than vs by\n"
	"more than the band? 'yes' when the whole interval lies below -band, 'no' when it\n"
	"lies wholly above, else 'undecided' (a one-sided test at 5%). The verdict\n"
	"describes the same interval: faster or slower when it lies wholly beyond\n"
	"+-band, parity when it lies inside (two one-sided tests), else undecided.\n"
	"The interval is a t interval at 90% (5% each side) on the per-round log\n"
	"ratios, each instance reduced to the geometric mean of its requests over the\n"
	"prompts both instances of the round answered, with each order of a round's\n"
	"two starts weighing half; Welch on the instances when runs have no partner;\n"
	"one instance a side, the requests' interval widened by the cell's stored A/A\n"
	"floor (tpsdb calibrate), without which it decides nothing. Runs of an\n"
	"--until-decided batch pay for its looks: the level is the batch's per-look\n"
	"level (Pocock). An instance far from its side's others (more than 25% and 5\n"
	"robust sd from their median) is left out and named. The tok/s shown are the\n"
	"geometric means behind the estimate, so delta is exactly their ratio; mde is\n"
	"the interval's half-width.\n"
	"\n"
	"Each row also says whether the two runs generated the same text: at\n"
	"temperature 0, outputs_compared counts the (prompt, rep) pairs of the cell's\n"
	"newest runs that both kept an output hash for, outputs_identical those whose\n"
	"hashes match (null at another temperature).\n"
	"\n"
	"Exit codes: 0 compared (whatever the verdicts), 1 --strict and a flagged cell,\n"
	"2 usage (also --vs the same engine as --ours without tags that tell the runs\n"
	"apart), 3 a cell was refused, nothing was comparable (the error names the\n"
	"config keys that keep the nearest cells apart), an engine, model or tag the\n"
	"store does not hold (the error lists the known ones, closest first), or a\n"
	"store error.\n";

enum {
	OPT_OURS = 256, OPT_VS, OPT_MODEL, OPT_METRIC, OPT_BAND, OPT_TAG, OPT_OURS_TAG,
	OPT_VS_TAG, OPT_BATCH, OPT_HOST, OPT_FORCE, OPT_JSON, OPT_IGNORE_CONFIG, OPT_STRICT,
};

static const struct option opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "ours", required_argument, NULL, OPT_OURS },
	{ "vs", required_argument, NULL, OPT_VS },
	{ "model", required_argument, NULL, OPT_MODEL },
	{ "metric", required_argument, NULL, OPT_METRIC },
	{ "band", required_argument, NULL, OPT_BAND },
	{ "tag", required_argument, NULL, OPT_TAG },
	{ "ours-tag", required_argument, NULL, OPT_OURS_TAG },
	{ "vs-tag", required_argument, NULL, OPT_VS_TAG },
	{ "batch", required_argument, NULL, OPT_BATCH },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "ignore-config", required_argument, NULL, OPT_IGNORE_CONFIG },
	FORMAT_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static int pct_opt(const char *name, const char *v, double *out)
{
	if (tps_parse_double(v, out) < 0 || *out < 0)
		return tps_usage_error(usage, "--%s needs a number >= 0, not '%s'", name, v);
	return 0;
}

int cmd_compare(int argc, char **argv, struct tps_ctx *ctx)
{
	struct cmd_opts co = { .cmd = &cmd_compare_entry };
	struct parity_result res = { 0 };
	struct pair_set set = { 0 };
	struct parity_opts o;
	struct store *s;
	const char *tag = NULL, *ours_tag = NULL, *vs_tag = NULL;
	enum out_format fmt = OUT_TEXT;
	FILE *summary;
	int c, strict = 0, ret = TPS_EXIT_ERROR;

	parity_opts_init(&o);

	while ((c = cmd_opts_next(&co, argc, argv, opts)) >= 0) {
		switch (c) {
		case OPT_OURS: o.ours = optarg; break;
		case OPT_VS: o.vs = optarg; break;
		case OPT_MODEL: o.model = optarg; break;
		case OPT_HOST: o.host = optarg; break;
		case OPT_TAG: tag = optarg; break;
		case OPT_OURS_TAG: ours_tag = optarg; break;
		case OPT_VS_TAG: vs_tag = optarg; break;
		case OPT_BATCH:
			if (!*optarg)
				return tps_usage_error(usage, "--batch needs a batch id");
			o.batch = optarg;
			break;
		case OPT_FORCE: o.force = 1; break;
		case OPT_IGNORE_CONFIG:
			if (ignore_config_opt(optarg, usage))
				return TPS_EXIT_USAGE;
			o.ignore_config = optarg;
			break;
		case OPT_STRICT: strict = 1; break;
		case OPT_JSON: fmt = OUT_JSON; break;
		case FILTER_OPT_FORMAT:
			if (format_opt_parse(optarg, &fmt, usage))
				return TPS_EXIT_USAGE;
			break;
		case OPT_METRIC:
			if (!strcmp(optarg, "pp"))
				o.metrics = PARITY_PP;
			else if (!strcmp(optarg, "tg"))
				o.metrics = PARITY_TG;
			else if (!strcmp(optarg, "both"))
				o.metrics = PARITY_BOTH;
			else
				return tps_usage_error(usage, "--metric is pp, tg or both, not '%s'",
						       optarg);
			break;
		case OPT_BAND:
			if (pct_opt("band", optarg, &o.band_pct))
				return TPS_EXIT_USAGE;
			break;
		}
	}
	if (c == CMD_OPTS_STOP)
		return co.ret;
	if (!o.ours || !o.vs)
		return tps_usage_error(usage, "--ours and --vs are both required");
	o.ours_tag = ours_tag ? ours_tag : tag;
	o.vs_tag = vs_tag ? vs_tag : tag;
	if (!strcmp(o.ours, o.vs) && !strcmp(o.ours_tag ? o.ours_tag : "", o.vs_tag ? o.vs_tag : ""))
		return tps_usage_error(usage, "--ours and --vs are both '%s': the same runs compared "
				       "with themselves (for an A/A pair give --ours-tag and "
				       "--vs-tag, or use 'tpsdb calibrate')", o.ours);
	if (!(s = tps_ctx_store(ctx)))
		goto out;
	if (store_label_check(s, STORE_LABEL_ENGINE, o.ours, "--ours") != 1 ||
	    store_label_check(s, STORE_LABEL_ENGINE, o.vs, "--vs") != 1 ||
	    (o.model && store_label_check(s, STORE_LABEL_MODEL, o.model, "--model") != 1) ||
	    (o.ours_tag && store_label_check(s, STORE_LABEL_TAG, o.ours_tag,
					     ours_tag ? "--ours-tag" : "--tag") != 1) ||
	    (o.vs_tag && o.vs_tag != o.ours_tag &&
	     store_label_check(s, STORE_LABEL_TAG, o.vs_tag, vs_tag ? "--vs-tag" : "--tag") != 1))
		goto out;
	if (store_pair_load(s, &o, &set) < 0)
		goto out;
	if (parity_decide(&set.in, &o, &res) < 0) {
		parity_stop_error(&res);
		goto out;
	}
	if (o.ignore_config)
		ignore_config_warn(o.ignore_config, o.ours, set.ignored[0], o.vs, set.ignored[1]);
	compare_write_notes(&res);
	if (!res.n_rows) {
		struct config_near near;
		char why[1024] = "";

		if (config_nearest(set.inst_sides[0], set.n_runs[0], set.inst_sides[1],
				   set.n_runs[1], &near))
			compare_write_near(why, sizeof(why), &near, o.ours, o.vs);
		tps_error("no cell measured by both '%s' and '%s'%s%s%s%s", o.ours, o.vs,
			  o.model ? " for model '" : "", o.model ? o.model : "", o.model ? "'" : "",
			  why);
		goto out;
	}
	if (fmt == OUT_JSON) {
		if (compare_write_json(&res) < 0)
			goto out;
	} else {
		compare_write(stdout, &res, o.ours, o.vs, o.band_pct, format_table(fmt));
	}
	if ((summary = step_summary_open())) {
		compare_write(summary, &res, o.ours, o.vs, o.band_pct, TABLE_FMT_MD);
		fputc('\n', summary);
		step_summary_close(summary);
	}
	ret = strict && parity_env_rows(&res) ? TPS_EXIT_FAIL : TPS_EXIT_OK;
out:
	parity_result_release(&res);
	pair_set_release(&set);
	return ret;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.summary = "parity deltas between two engines",
	.usage = usage,
	.help = help,
	.flags = CMD_READONLY,
	.exec = cmd_compare,
};
