/* parity.h: the words of a parity analysis (analyze/parity.h): a cell's display
 * name, why two runs are not comparable, the notes of a comparison and the line
 * that says why it stopped. Shared by compare, calibrate, gate and the report. */
#ifndef REPORTS_PARITY_H
#define REPORTS_PARITY_H

#include <stddef.h>
#include <stdint.h>

#include "analyze/parity.h"

/* Names a cell for messages and tables: "<model>" for a base cell on the completion
 * endpoint, else "<model> [<spec_type> n_max=<n>] (<endpoint>)" with the parts that
 * apply. Always NUL-terminates buf when len > 0. */
void parity_cell_name(const char *model, const char *spec_type, int64_t n_max,
		      const char *endpoint, char *buf, size_t len);

/* parity_cell_name() of a row, then its llama-bench config, if any, in braces. */
void parity_row_name(const struct parity_row *w, char *buf, size_t len);
/* The llama-bench config keys that vary among r's rows (config_varying()). */
unsigned parity_rows_varying(const struct parity_result *r);
/* parity_row_name() with only the config keys in varying (and the test): the
 * label of a table whose constant keys are printed once above it. */
void parity_row_label(const struct parity_row *w, unsigned varying, char *buf, size_t len);
/* The keys every row shares ("ngl=99 b=2048 ..."), from the first row with a
 * config, or NULL when no row has one or nothing is shared. Caller frees. */
char *parity_rows_constant(const struct parity_result *r, unsigned varying);
/* parity_row_label() of a side: only the config keys in varying. */
void run_cell_label(const struct run *s, unsigned varying, char *buf, size_t len);
/* The config keys that vary among the n configs of cfg (config_varying()), and in
 * *constant the keys they share, from the first non-empty one, as
 * parity_rows_constant() (NULL: none). Caller frees what *constant gets. */
unsigned parity_configs_varying(const char *const *cfg, size_t n, char **constant);
/* parity_cell_name() of a side, then its config as parity_row_name() does. */
void run_cell_name(const struct run *s, char *buf, size_t len);

/* Why two runs may not be compared, e.g. "model sha256 differs (1a2b3c4d5e6f vs
 * 9f8e7d6c5b4a)" or "n_predict differs (256 vs 128)"; "" for RUN_DIFF_NONE.
 * Always NUL-terminates buf when len > 0. */
void parity_diff_text(const struct run_diff *d, char *buf, size_t len);

/* A note as one line without a prefix: "cell '<name>': no run of '<engine>' to
 * compare with", or "FORCED comparison of cell '<name>' although <diff>". Returns
 * a heap string the caller frees. */
char *parity_note_text(const struct parity_note *n);

/* How far a verdict is from answering the regression question, in words, into
 * buf: "no (interval [-1.20%, +0.80%] above -2.00%)", "yes (...below -2.00%)",
 * or for an undecided one "undecided: interval [-3.10%, +0.80%] holds -2.00%;
 * its lower end is 1.10 points short of 'no', its upper end 2.80 of 'yes'", or
 * why nothing is decided ("one instance a side: ..."). The band is v->band_pct. */
void verdict_answer_text(const struct verdict *v, enum estimate_reason reason, char *buf,
			 size_t len);

/* What a llama-bench comparison of one process a side needs, in words: more
 * processes, each file imported (an instance of its build, analyze/cellset.h). */
extern const char parity_bench_remedy[];

/* verdict_answer_text() of a row, except that a llama-bench row of one process a
 * side that cannot decide says parity_bench_remedy, not a collect option. */
void parity_row_answer_text(const struct parity_row *w, char *buf, size_t len);

/* The title of an interval column over the verdicts v[0..n): "90% interval" when
 * every one is at that level, "95.6% interval" for another shared level (a
 * sequential batch's per-look level, a pool of batches), "interval" when they
 * differ (JSON's ci_level gives each). */
void verdict_level_title(const struct verdict *const *v, size_t n, char *buf, size_t len);

/* The interval as "[-1.20%, +0.80%]" or "-" when it has none. */
void verdict_interval_text(const struct verdict *v, char *buf, size_t len);

/* The instances a row left out, "" when none: "left out as outlier instances:
 * ours 1a2b3c4d, vs 9f8e7d6c". */
void parity_row_outliers_text(const struct parity_row *w, char *buf, size_t len);
/* The names of the RUN_ENV_* bits set in flags, ", "-separated, into buf
 * ("host-busy, gpu-contended"); "" for none. Always NUL-terminates buf. */
void parity_env_names(unsigned flags, char *buf, size_t len);

/* The warning for a row whose runs carry an environment finding or degenerate
 * output: "cell '<name>': the runs carry host-busy (ours), gpu-contended (vs):
 * the delta may be the environment's, not the engine's; 'tpsdb check' says
 * more". NULL for a clean row. Caller frees. */
char *parity_env_text(const struct parity_row *w);

/* The metric a one-metric question watched (question: pools_question(), a
 * row's): "pp" or "tg", NULL for both (JSON's question_metric). */
const char *parity_question_name(unsigned question);
/* That question in words into buf, "" for both: "decided on tg only: pp not
 * watched by this batch (--metric tg); pp's interval still pays for its looks".
 * Compare's and gate's line for such a cell. */
void parity_question_text(unsigned question, char *buf, size_t len);

/* Prints the error line for a result whose parity_decide() returned -1 (the
 * refused cell and why, or the bad parameters) and returns -1. */
int parity_stop_error(const struct parity_result *r);

#endif
