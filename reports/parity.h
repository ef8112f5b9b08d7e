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
/* parity_cell_name() of a side, then its config as parity_row_name() does. */
void parity_side_name(const struct parity_side *s, char *buf, size_t len);

/* Why two runs may not be compared, e.g. "model sha256 differs (1a2b3c4d5e6f vs
 * 9f8e7d6c5b4a)" or "n_predict differs (256 vs 128)"; "" for PARITY_DIFF_NONE.
 * Always NUL-terminates buf when len > 0. */
void parity_diff_text(const struct parity_diff *d, char *buf, size_t len);

/* A note as one line without a prefix: "cell '<name>': no run of '<engine>' to
 * compare with", or "FORCED comparison of cell '<name>' although <diff>". Returns
 * a heap string the caller frees. */
char *parity_note_text(const struct parity_note *n);

/* The names of the RUN_ENV_* bits set in flags, ", "-separated, into buf
 * ("host-busy, gpu-contended"); "" for none. Always NUL-terminates buf. */
void parity_env_names(unsigned flags, char *buf, size_t len);

/* The warning for a row whose runs carry an environment finding or degenerate
 * output: "cell '<name>': the runs carry host-busy (ours), gpu-contended (vs):
 * the delta may be the environment's, not the engine's; 'tpsdb check' says
 * more". NULL for a clean row. Caller frees. */
char *parity_env_text(const struct parity_row *w);

/* Prints the error line for a result whose parity_decide() returned -1 (the
 * refused cell and why, or the bad parameters) and returns -1. */
int parity_stop_error(const struct parity_result *r);

#endif
