/* runs_md.c: renders `tpsdb runs --format md` from the same table the text form
 * prints (runs_write_fill()), so the two cannot list different columns. */
#include "reports/runs_md.h"
#include "reports/md.h"
#include "reports/runs_write.h"

void runs_md_write(FILE *f, const struct catalog_run *runs, size_t n)
{
	struct md_table t;

	if (!n) {
		fprintf(f, "_No runs._\n");
		return;
	}
	runs_write_fill(&t, runs, n);
	md_table_write_gfm(f, &t);
	md_table_release(&t);
}
