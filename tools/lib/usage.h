/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_USAGE_H
#define KVERIFY_USAGE_H

#include "lib/strbuf.h"

/*
 * One line on stderr behind "kverify: " (after git's usage.c): error()
 * returns -1 for "return error(...)"; note() says what is going on;
 * warning() adds "warning: ".
 */
__printf(1, 2) int error(const char *fmt, ...);
__printf(1, 2) void note(const char *fmt, ...);
__printf(1, 2) void warning(const char *fmt, ...);

#endif
