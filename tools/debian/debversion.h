/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBVERSION_H
#define KVERIFY_DEBVERSION_H

/*
 * Debian's order of two versions ([epoch:]upstream[-revision]), as
 * dpkg --compare-versions has it: < 0, 0 or > 0.
 */
int debversion_cmp(const char *a, const char *b);

#endif
