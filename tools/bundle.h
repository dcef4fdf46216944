/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_BUNDLE_H
#define KVERIFY_BUNDLE_H

#include "step.h"

/* results/<target>/bundle/: what a lab needs to run the tests. */
int write_bundle(const struct verify_ctx *ctx);

#endif
