/* report_html.c: the report as a static HTML folder: index.html with the same
 * tables as report.md (built by the same tables_build_* functions), the figures as
 * SVG beside it, and a page per model with its history and change points. Every
 * label goes through escape_html(); the pages load nothing from the network: the
 * style is inline and the only references are the folder's own files. */
#include "reports/tables_int.h"
#include "escape.h"
#include "reports/md.h"
#include "reports/strv.h"
#include "reports/table.h"
#include "tpsdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One style for every page: readable from a phone to a laptop (tables scroll
 * sideways inside their box instead of widening the page), and a print style
 * without the navigation, with figures kept whole on a page. */
static const char css[] =
	":root{--fg:#1f2328;--mute:#59636e;--line:#d1d9e0;--head:#f6f8fa;--best:#dafbe1}\n"
	"*{box-sizing:border-box}\n"
	"body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',"
	"Arial,sans-serif;color:var(--fg);margin:0 auto;padding:1.5rem 2rem;max-width:1280px}\n"
	"h1{font-size:1.6rem;margin:.2rem 0 .4rem}h2{font-size:1.25rem;margin:2rem 0 .6rem;"
	"padding-bottom:.2rem;border-bottom:1px solid var(--line)}h3{font-size:1.05rem;"
	"margin:1.2rem 0 .4rem}\n"
	"p{margin:.4rem 0 .8rem;max-width:75ch}.mute{color:var(--mute)}\n"
	"nav{font-size:.9rem;margin:.2rem 0 1rem}nav a{margin-right:1rem}\n"
	"a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}\n"
	".scroll{overflow-x:auto;max-width:100%}\n"
	"table{border-collapse:collapse;font-size:.88rem;margin:.3rem 0 1rem}\n"
	"th,td{border:1px solid var(--line);padding:.25rem .55rem;text-align:left;"
	"vertical-align:top}\n"
	"th{background:var(--head);font-weight:600}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"td.best{background:var(--best);font-weight:600}\n"
	"tbody tr:nth-child(even) td{background:#fbfcfd}\n"
	"tbody tr:nth-child(even) td.best{background:var(--best)}\n"
	"code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;"
	"font-size:.85em}\n"
	"figure{margin:.6rem 0 1.4rem}figure img{width:100%;max-width:1000px;height:auto;"
	"border:1px solid var(--line)}figcaption{color:var(--mute);font-size:.85rem}\n"
	"ul{padding-left:1.3rem}li{margin:.15rem 0}p,li{overflow-wrap:anywhere}\n"
	/* The answers: the word is the answer, the colour repeats it (dark text on a
	 * light tint, readable without colour and in print). */
	"table.answers td.ans{font-weight:600;white-space:nowrap}\n"
	"table.answers td.clean{font-weight:400;white-space:normal;min-width:14rem}\n"
	"table.answers td.ans-no,.key .ans-no{background:#dafbe1;color:#0a3622}\n"
	"table.answers td.ans-yes,.key .ans-yes{background:#ffd8d3;color:#6e0b13}\n"
	"table.answers td.ans-undecided,.key .ans-undecided{background:#fff1b8;color:#4d3800}\n"
	"table.answers td.ans-intermittent,.key .ans-intermittent{background:#ffe2c2;"
	"color:#5c2a00}\n"
	"table.answers td.ans-spoiled,.key .ans-spoiled{background:#e6e1f5;color:#3b2a6b;"
	"font-style:italic}\n"
	"table.answers td.ans-na,table.answers td.ans-nc,.key .ans-nc{color:var(--mute)}\n"
	".key span.ans{display:inline-block;padding:0 .4rem;margin:0 .2rem .2rem 0;"
	"border:1px solid var(--line);font-weight:600}\n"
	"@media (max-width:600px){body{padding:1rem .75rem}table{font-size:.8rem}"
	"th,td{padding:.2rem .35rem}}\n"
	"@media print{body{max-width:none;padding:0;font-size:10pt}nav{display:none}"
	"a{color:inherit}.scroll{overflow:visible}table{font-size:8pt}"
	"figure,table{break-inside:avoid}h2,h3{break-after:avoid}"
	"figure img{max-width:100%;border:none}}\n";

static void put(FILE *f, const char *s)
{
	char *e = escape_html(s);

	fputs(e, f);
	free(e);
}

static void page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>", f);
	put(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", css);
}

static void page_end(FILE *f)
{
	fputs("<p class=\"mute\">Written by tpsdb report.</p>\n</body>\n</html>\n", f);
}

/* A cell that starts with a number (or is "-") is right-aligned. */
static int numeric(const char *s)
{
	return (*s >= '0' && *s <= '9') || !strcmp(s, "-");
}

/* A table's opening (open: its container and <table> tags), header row and <tbody>. */
static void table_head(FILE *f, const struct md_table *mt, const char *open)
{
	fputs(open, f);
	fputs("\n<thead><tr>", f);
	for (size_t c = 0; c < mt->ncols; c++) {
		fputs("<th>", f);
		put(f, md_table_get(mt, 0, c));
		fputs("</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void table(FILE *f, struct table *tab)
{
	const struct md_table *mt = &tab->t;
	size_t r, c;

	table_head(f, mt, "<div class=\"scroll\"><table>");
	for (r = 1; r < mt->nrows; r++) {
		fputs("<tr>", f);
		for (c = 0; c < mt->ncols; c++) {
			const char *s = md_table_get(mt, r, c);
			int best = mt->cells[r * mt->ncols + c].mark;
			fprintf(f, "<td%s>", best ? " class=\"num best\"" :
					c && numeric(s) ? " class=\"num\"" : "");
			put(f, s);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
	table_release(tab);
}

static void figure(FILE *f, const char *what, const char *file)
{
	if (!file)
		return;
	/* The file names are ours (trend.svg, trend-3.svg): no escaping needed, but
	 * it costs nothing. */
	fputs("<figure><img src=\"", f);
	put(f, file);
	fputs("\" alt=\"", f);
	put(f, what);
	fputs("\"><figcaption>", f);
	put(f, what);
	fputs("</figcaption></figure>\n", f);
}

/* The answers table, first on the page: the cells as every format words them
 * (tables_build_answers()), the answer and the newest clean answer tinted by
 * their class (tables_answer_class()). */
static void answers_table(FILE *f, const struct tables *t)
{
	static const struct {
		const char *cls, *word, *what;
	} key[] = {
		{ "no", "no", "not slower beyond the band" },
		{ "yes", "yes", "slower beyond the band" },
		{ "undecided", "undecided", "the interval holds the band's edge" },
		{ "intermittent", "intermittent", "slow on some starts" },
		{ "spoiled", "spoiled", "an instance measured on a busy machine: no answer" },
		{ "nc", "not comparable", "the runs differ" },
	};
	struct table tab = { 0 };
	const struct md_table *mt;
	size_t r, c, i;
	char *legend;

	tables_build_answers(t, &tab);
	mt = &tab.t;
	table_head(f, mt, "<div class=\"scroll\" id=\"answers\"><table class=\"answers\">");
	for (r = 1; r < mt->nrows; r++) {
		fputs("<tr>", f);
		for (c = 0; c < mt->ncols; c++) {
			const char *s = md_table_get(mt, r, c);
			const char *cls = c == 3 ? tables_answer_class(t, r - 1, 0) :
					  c == 7 ? tables_answer_class(t, r - 1, 1) : "";

			if (*cls)
				fprintf(f, "<td class=\"ans%s ans-%s\">", c == 7 ? " clean" : "", cls);
			else
				fputs(c == 5 || c == 6 ? "<td class=\"num\">" : "<td>", f);
			put(f, s);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n<p class=\"key\">", f);
	for (i = 0; i < sizeof(key) / sizeof(key[0]); i++) {
		fprintf(f, "<span class=\"ans ans-%s\">%s</span> %s%s", key[i].cls, key[i].word,
			key[i].what, i + 1 < sizeof(key) / sizeof(key[0]) ? "; " : "");
	}
	fputs("</p>\n<p class=\"mute\">", f);
	legend = tables_answers_legend(t);
	put(f, legend);
	free(legend);
	fputs("</p>\n", f);
	table_release(&tab);
}

/* A paragraph of text (NULL: none), escaped; frees it. */
static void para(FILE *f, char *text)
{
	if (!text)
		return;
	fputs("<p>", f);
	put(f, text);
	fputs("</p>\n", f);
	free(text);
}

/* Where the runs that match come from several machines, the section that names
 * each, as markdown and text have it (tables_machine_lines()). */
static void machines(FILE *f, const struct tables *t)
{
	size_t n, i;
	char **lines = tables_machine_lines(t, &n);

	if (n) {
		char *intro = tables_machines_intro(n);

		fprintf(f, "<h2 id=\"machines\">Machines</h2>\n<p>%s</p>\n<ul>\n", intro);
		free(intro);
		for (i = 0; i < n; i++) {
			fputs("<li>", f);
			put(f, lines[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	strv_free(lines, n);
}

int tables_write_html(FILE *f, const struct tables *t, const struct tables_figures *fig,
		      const struct tables_html_model *models, size_t n_models)
{
	struct table tab = { 0 };
	char **lines;
	size_t n, i;

	page_begin(f, "tpsdb report");
	fputs("<h1>tpsdb report</h1>\n", f);
	/* Several machines: which the numbers come from, before any number. */
	para(f, tables_machines_note(t));
	if (t->n_rows)
		answers_table(f, t);
	fputs("<nav><a href=\"#base\">Base</a><a href=\"#spec\">"
	      "Speculative</a><a href=\"#prompts\">Per-prompt</a><a href=\"#quality\">"
	      "Data quality</a><a href=\"#runs\">Runs</a><a href=\"#plots\">Plots</a>"
	      "<a href=\"#models\">Models</a></nav>\n", f);
	fputs("<p>In tok/s, prefill (pp) as a whole number, decode (tg) to one decimal.", f);
	if (t->ref) {
		fputs(" Each cell's estimate against the reference engine <b>", f);
		put(f, t->ref);
		fputs("</b>, the one 'tpsdb compare' prints, and in parentheses the verdicts of "
		      "pp / tg from compare's interval (90% for a batch of fixed rounds, wider for an until-decided batch or a pool of batches): \"parity\" inside the band, the delta "
		      "and \"faster\" or \"slower\" beyond it, else the delta and "
		      "\"undecided\"; \"n/a\" one without values.</p>\n", f);
	} else if (t->ours && t->n_engines > 1) {
		fputs(" No --ref: <b>", f);
		put(f, t->ours);
		fputs("</b> (the engine of role ours, else the first column) is compared with "
		      "every other engine, each comparison the one 'tpsdb compare --ours ", f);
		put(f, t->ours);
		fputs(" --vs &lt;engine&gt;' prints. An engine's cell holds its estimate in that "
		      "comparison and in parentheses, after \"", f);
		put(f, t->ours);
		fputs(":\", the verdicts of pp / tg of ", f);
		put(f, t->ours);
		fputs(" against that engine from compare's interval (90% for a batch of fixed rounds, wider for an until-decided batch or a pool of batches) (\"-3.1% slower\": ", f);
		put(f, t->ours);
		fputs(" is 3.1% slower than it): \"parity\" inside the band, the delta and "
		      "\"faster\" or \"slower\" beyond it, else the delta and \"undecided\"; "
		      "\"n/a\" one without values. The cell marked (ours) holds its estimate in "
		      "its comparison with the first other engine.</p>\n", f);
	} else {
		fputs(" One engine and no --ref: nothing to compare, no verdicts.</p>\n", f);
	}
	if (tables_any_spoiled(t))
		fputs("<p>\"spoiled (&lt;findings&gt;)\": an instance the estimate used was "
		      "measured on a busy, throttled or misplaced machine (the findings under Data "
		      "quality): its interval is no answer, so the cell has no verdict and its "
		      "answer counts it apart.</p>\n", f);
	for (size_t i = 0; i < t->n_engines; i++) {
		/* The answer first, per comparison: each engine against the reference,
		 * or ours against each engine. */
		char *line = tables_answer_text(t, i);

		if (!line)
			continue;
		fputs("<p class=\"answer\"><b>", f);
		put(f, line);
		fputs("</b></p>\n", f);
		free(line);
	}
	machines(f, t);
	fputs("<h2 id=\"base\">Base throughput</h2>\n", f);
	if (t->n_base) {
		int any = 0;

		para(f, tables_section_machines(t, 0));

		tables_build_base(t, &tab);
		table(f, &tab);
		/* A spoiled verdict: the newest clean answer of the same comparison. */
		for (size_t k = 0; k < t->n_base; k++)
			for (size_t e = 0; e < t->n_engines; e++)
				for (int m = 0; m < 2; m++) {
					char *l = tables_clean_text(t, k, e, m);

					if (!l)
						continue;
					fputs(any ? "<li>" : "<ul class=\"clean\">\n<li>", f);
					put(f, l);
					fputs("</li>\n", f);
					any = 1;
					free(l);
				}
		if (any)
			fputs("</ul>\n", f);
	} else {
		fputs("<p>No base runs.</p>\n", f);
	}
	fputs("<h2 id=\"spec\">Speculative decoding</h2>\n", f);
	if (t->n_spec) {
		para(f, tables_section_machines(t, 1));
		fputs("<p>Each cell is decode tok/s · acceptance (drafted tokens accepted) at "
		      "that n_max; a shaded cell is an engine's fastest rung in its row, "
		      "shaded only when decided (its 90% interval across runs lies above "
		      "every other rung's).</p>\n", f);
		tables_build_spec(t, &tab);
		table(f, &tab);
	} else {
		fputs("<p>No speculative runs.</p>\n", f);
	}
	fputs("<h2 id=\"prompts\">Per-prompt acceptance</h2>\n", f);
	if (!t->n_prompts)
		fputs("<p>No speculative runs.</p>\n", f);
	for (i = 0; i < t->n_prompts; i++) {
		const struct tables_prompt_table *pt = &t->prompts[i];
		char *m = cell_label_endpoint(pt->model, pt->endpoint);
		char *title = tps_xasprintf("%s / %s", m, study_spec_name(pt->spec_type));
		fputs("<h3>", f);
		put(f, title);
		fputs("</h3>\n", f);
		free(title);
		free(m);
		tables_build_prompts(t, pt, &tab);
		table(f, &tab);
	}
	fputs("<h2 id=\"quality\">Data quality and model identity</h2>\n", f);
	lines = tables_quality_lines(t, &n);
	if (n) {
		fputs("<ul>\n", f);
		for (i = 0; i < n; i++) {
			fputs("<li>", f);
			put(f, lines[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else {
		fputs("<p>No findings and no model-identity alarms.</p>\n", f);
	}
	strv_free(lines, n);
	fputs("<h2 id=\"runs\">Runs</h2>\n", f);
	if (t->n_runs) {
		tables_build_runs(t, &tab);
		table(f, &tab);
	} else {
		fputs("<p>No runs.</p>\n", f);
	}
	fputs("<h2 id=\"plots\">Plots</h2>\n", f);
	if (fig && fig->note) {
		fputs("<p>", f);
		put(f, fig->note);
		fputs("</p>\n", f);
	}
	if (fig) {
		figure(f, fig->trend_what ? fig->trend_what : "trend of decode tok/s", fig->trend);
		figure(f, fig->trend_pp_what ? fig->trend_pp_what : "trend of prefill tok/s",
		       fig->trend_pp);
		figure(f, "speculative sweep", fig->sweep);
		figure(f, "parity deltas of decode (tg)", fig->parity);
		figure(f, "parity deltas of prefill (pp)", fig->parity_pp);
	}
	fputs("<h2 id=\"models\">Models</h2>\n", f);
	if (!n_models)
		fputs("<p>No models.</p>\n", f);
	else
		fputs("<p>Each model's history of decode tok/s on its base config, with its "
		      "change points.</p>\n<ul>\n", f);
	for (i = 0; i < n_models; i++) {
		fprintf(f, "<li><a href=\"%s\">", models[i].page);
		put(f, models[i].model);
		fprintf(f, "</a> <span class=\"mute\">(%zu runs)</span></li>\n", models[i].n_runs);
	}
	if (n_models)
		fputs("</ul>\n", f);
	page_end(f);
	return ferror(f) ? -1 : 0;
}

/* Seconds since the epoch as "2025-01-02 03:04 UTC". */
static void when(char *buf, size_t n, double x)
{
	time_t tt = (time_t)x;
	struct tm tm;

	if (!isfinite(x) || !gmtime_r(&tt, &tm))
		snprintf(buf, n, "-");
	else
		strftime(buf, n, "%Y-%m-%d %H:%M UTC", &tm);
}

int tables_write_html_model(FILE *f, const struct tables_html_model *m)
{
	/* HTML aligns by the cells, not by the kinds (numeric()). */
	static const struct table_colspec cp_cols[] = {
		{ TABLE_LABEL, "engine", 0 },
		{ TABLE_TEXT, "first run after the change", 0 },
		{ TABLE_TEXT, "decode tok/s there", 0 },
		{ TABLE_TEXT, "change", 0 },
	};
	static const struct table_colspec run_cols[] = {
		{ TABLE_LABEL, "engine", 0 },
		{ TABLE_TEXT, "run", 0 },
		{ TABLE_TEXT, "started", 0 },
		{ TABLE_TEXT, "decode tok/s", 0 },
	};
	const struct plot_trend *tr = m->trend;
	struct table tab = { 0 };
	char buf[64], *title = tps_xasprintf("%s: history", m->model);
	size_t i, k, r, ncp = 0;

	page_begin(f, title);
	free(title);
	fputs("<nav><a href=\"index.html\">&larr; report</a></nav>\n<h1>", f);
	put(f, m->model);
	fputs("</h1>\n", f);
	if (!tr || !tr->n_series) {
		fputs("<p>No history of the base config.</p>\n", f);
		page_end(f);
		return ferror(f) ? -1 : 0;
	}
	fputs("<p>Decode tok/s (median of the unflagged samples of each run) on the base "
	      "config, per engine, in the order the runs started.</p>\n", f);
	figure(f, "history of decode tok/s", m->trend_svg);
	fputs("<h2>Change points</h2>\n", f);
	table_init_cols(&tab, cp_cols, sizeof(cp_cols) / sizeof(cp_cols[0]));
	for (i = 0; i < tr->n_series; i++) {
		const struct plot_trend_series *se = &tr->series[i];
		for (k = 0; k < se->n_cp; k++) {
			if (se->cp[k] >= se->n)
				continue;
			r = table_add_row(&tab);
			table_set(&tab, r, 0, se->label);
			when(buf, sizeof(buf), se->x[se->cp[k]]);
			table_setf(&tab, r, 1, "run %zu, %s", se->cp[k] + 1, buf);
			table_setf(&tab, r, 2, "%.1f", se->y[se->cp[k]]);
			table_setf(&tab, r, 3, "%+.1f%%", se->cp_pct[k]);
			ncp++;
		}
	}
	if (ncp)
		table(f, &tab);
	else {
		table_release(&tab);
		fputs("<p>No change points: every series holds one level.</p>\n", f);
	}
	fputs("<h2>Runs</h2>\n", f);
	table_init_cols(&tab, run_cols, sizeof(run_cols) / sizeof(run_cols[0]));
	for (i = 0; i < tr->n_series; i++) {
		const struct plot_trend_series *se = &tr->series[i];
		for (k = 0; k < se->n; k++) {
			r = table_add_row(&tab);
			table_set(&tab, r, 0, se->label);
			table_setf(&tab, r, 1, "%zu", k + 1);
			when(buf, sizeof(buf), se->x[k]);
			table_set(&tab, r, 2, buf);
			if (isfinite(se->y[k]))
				table_setf(&tab, r, 3, "%.1f", se->y[k]);
			else
				table_set(&tab, r, 3, "-");
		}
	}
	table(f, &tab);
	page_end(f);
	return ferror(f) ? -1 : 0;
}
