/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_REPORT_H
#define KVERIFY_REPORT_H

/* What a verify run found: terminal, report.json, JUnit, KCIDB. */
#include "core/step.h"

void report_text(const struct verify_ctx *ctx,
		 const struct step_result *res, int n);
int report_json(const struct verify_ctx *ctx,
		const struct step_result *res, int n, struct strbuf *err);
int report_junit(const struct verify_ctx *ctx,
		 const struct step_result *res, int n, struct strbuf *err);
int report_kcidb(const struct verify_ctx *ctx,
		 const struct step_result *res, int n, struct strbuf *err);

#endif
