/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_REPORT_INT_H
#define KVERIFY_REPORT_INT_H

/*
 * What report.c (the table, report.json, junit.xml) shares with
 * report_kcidb.c (kcidb.json): private to the two.
 */
#include "core/ktap.h"
#include "core/step.h"

/* "" or ".interrupted": an interrupted run's reports go beside the last's */
const char *interrupted_infix(const struct verify_ctx *ctx);
int write_report(const char *path, struct strbuf *sb, struct strbuf *err);
/* the compiler that built the objects, else the one make runs */
char *report_compiler(const struct verify_ctx *ctx,
		      const struct step_result *res, int n);
/* a guest test's status as a step's */
int test_to_step(enum test_status s);

#endif
