/* props.h: what the collector reads from a server's GET /props: the build it was
 * compiled from, the model it loaded and the context each slot really got. */
#ifndef COLLECT_PROPS_H
#define COLLECT_PROPS_H

#include <stddef.h>
#include <stdint.h>

struct props {
	char *build_info;  /* e.g. "b6000-abc1234"; NULL when absent */
	char *model_path;  /* NULL when absent */
	int64_t n_ctx;     /* default_generation_settings.n_ctx; TPS_NULL when absent */
};

void props_init(struct props *p);
/* Frees what p owns and re-initialises it; accepts NULL. */
void props_release(struct props *p);

/* Parses a /props body (len bytes) into p (initialised here; the caller releases
 * it whatever this returns). Absent fields stay absent. -1 with a message in err
 * when the body is not a JSON object; 0 otherwise. Pure. */
int props_parse(const char *json, size_t len, struct props *p, char *err, size_t errlen);

#endif
