/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_BUNDLE_H
#define KVERIFY_BUNDLE_H

#include "core/step.h"

/* results/<target>/bundle/: what a lab needs to run the tests. */
int write_bundle(const struct verify_ctx *ctx);

/* ARTIFACTS=: an http, https or file URL a LAVA job can hold; 0, or -1. */
int bundle_check_artifacts(const char *url, struct strbuf *why);

#endif
