/* plot.c: the gnuplot driver, the one place gnuplot runs: finding it on $PATH, and
 * running it once per job through proc.c, with a timeout, its complaints captured
 * in a log whose last line the error quotes, then handing each drawn figure to its
 * out path. The figures themselves are plot_trend.c, plot_sweep.c and
 * plot_parity.c, over the job of plot_job.c. */
#include "reports/plot.h"
#include "reports/plot_int.h"
#include "reports/tail.h"
#include "outfile.h"
#include "proc.h"
#include "tpsdb.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *plot_find_gnuplot(void)
{
	const char *path = getenv("PATH"), *p, *end;

	if (!path || !*path)
		return NULL;
	for (p = path; *p; p = *end ? end + 1 : end) {
		char *cand;
		struct stat st;
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		if (end == p)
			continue; /* an empty entry means ".", which a tool should not trust */
		cand = tps_xasprintf("%.*s/gnuplot", (int)(end - p), p);
		if (!stat(cand, &st) && S_ISREG(st.st_mode) && !access(cand, X_OK))
			return cand;
		free(cand);
	}
	return NULL;
}

/* The last line of gnuplot's complaints, at most 300 bytes; heap. */
static char *last_line(const char *log)
{
	char *text = tps_read_file(log, NULL), *ret = tail_line(text, 300);

	if (!*ret) {
		free(ret);
		ret = tps_xstrdup("(no output)");
	}
	free(text);
	return ret;
}

/* gnuplot (the path, not searched) with the script file as its only argument,
 * stdin from /dev/null and both output streams into errlog, killed after
 * timeout_s seconds. It stays in our process group, so that a ^C ends it with us,
 * is sent SIGTERM by the kernel when we die (a SIGTERM to tpsdb alone ends it at
 * once, and a gnuplot that hangs is not left running), and gets SIGXFSZ's default
 * back, so that a file-size limit kills it rather than leaving a cut figure that
 * looks whole. */
static int plot_exec(const char *gnuplot, const char *script, const char *errlog, int timeout_s)
{
	char *argv[] = { (char *)"gnuplot", (char *)script, NULL };
	struct proc_spec sp = { 0 };
	enum proc_end end;
	struct proc *p;
	int code = 0, ret = -1;

	sp.argv = argv;
	sp.path = gnuplot;
	sp.out_path = errlog;
	sp.out_mode = 0600;
	sp.flags = PROC_FSIZE_KILLS | PROC_PARENT_DEATH;
	if (!(p = proc_start(&sp, NULL)))
		return tps_error("cannot run '%s': %s", gnuplot, strerror(errno));
	if (proc_exec_errno(p)) {
		tps_error("cannot run '%s': %s", gnuplot, strerror(proc_exec_errno(p)));
		goto out;
	}
	if (!proc_wait(p, timeout_s * 1000.0)) {
		proc_kill(p, SIGKILL);
		proc_wait(p, -1);
		tps_error("gnuplot did not finish within %d s: killed", timeout_s);
		goto out;
	}
	end = proc_end(p, &code);
	if (end == PROC_EXITED && code == 0) {
		ret = 0;
	} else if (end == PROC_GONE) {
		tps_error("cannot wait for gnuplot: %s", strerror(code));
	} else {
		char *line = last_line(errlog);
		if (end == PROC_EXITED)
			tps_error("gnuplot failed (exit %d): %s", code, line);
		else
			tps_error("gnuplot was killed by signal %d: %s", code, line);
		free(line);
	}
out:
	proc_free(p);
	return ret;
}

int plot_job_run(struct plot_job *j, const char *gnuplot, int timeout_s)
{
	char *errlog = tps_xasprintf("%s/gnuplot.log", j->dir);
	size_t i;
	int ret = -1;

	plot_job_file(j, errlog);
	if (ferror(j->gp) | fclose(j->gp)) {
		j->gp = NULL;
		tps_error("cannot write '%s'", j->script);
		goto out;
	}
	j->gp = NULL;
	if (plot_exec(gnuplot, j->script, errlog, timeout_s) < 0)
		goto out;
	for (i = 0; i < j->n_outs; i++) {
		struct stat st;
		if (stat(j->srcs[i], &st) || st.st_size == 0) {
			tps_error("gnuplot wrote no '%s'", j->outs[i]);
			goto out;
		}
	}
	/* Only once every figure is drawn: a failure above leaves the old ones. */
	for (i = 0; i < j->n_outs; i++) {
		if (outfile_copy(j->srcs[i], j->outs[i]) < 0) {
			ret = -2; /* our write failed, not gnuplot */
			goto out;
		}
	}
	ret = 0;
out:
	free(errlog);
	return ret;
}
