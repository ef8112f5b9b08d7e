/* repeat.h: how much of a generated text is one short piece repeated, the measure
 * behind the degenerate-output flag. A model fed the wrong template under
 * ignore_eos can collapse into "</u></u></u>..." and its decode rate is then that
 * of a loop, not of text. */
#ifndef COLLECT_REPEAT_H
#define COLLECT_REPEAT_H

#include <stddef.h>

/* The longest period looked at, in bytes: a "short piece" is at most this long,
 * about four tokens. Longer cycles are left alone on purpose: a random-weight
 * test model cycles through 28-byte phrases, and its decode is what the test
 * suite and the GPU proofs measure. */
#define REPEAT_MAX_PERIOD 16
/* Texts shorter than this are not judged (NAN): too little to call a loop. */
#define REPEAT_MIN_BYTES 32

/* The repeat share of text (len bytes): the largest, over periods p from 1 to
 * REPEAT_MAX_PERIOD, of the fraction of the text's bytes that equal the byte p
 * before them. A text made of one piece of p bytes repeated scores near 1, prose
 * and the test models' output around 0.05 to 0.15. NAN when len < REPEAT_MIN_BYTES. Pure. */
double repeat_share(const char *text, size_t len);

#endif
