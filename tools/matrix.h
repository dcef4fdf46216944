/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_MATRIX_H
#define KVERIFY_MATRIX_H

#include "targets.h"

int cmd_matrix(const struct target_list *l, const char *format,
	       const char *shard_spec, const char *results);

int cmd_matrix_sweep(const struct strvec *jobs, const char *format);

#endif
