/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_USAGE_H
#define KVERIFY_USAGE_H

#include "lib/strbuf.h"

/*
 * One line on stderr behind "kverify: " (after git's usage.c): error()
 * returns -1 for "return error(...)"; note() says what is going on;
 * warning() adds "warning: ".
 */

/**
 * error() - Say what went wrong, on one line of stderr.
 * @fmt: The message, as for printf(), without the newline.
 * @...: Its arguments.
 *
 * The line is "kverify: " and the message, written in one piece so that
 * lines of parallel runs stay whole.
 *
 * Return: -1, for "return error(...)".
 */
__printf(1, 2) int error(const char *fmt, ...);

/**
 * note() - Say what is going on, on one line of stderr.
 * @fmt: The message, as for printf(), without the newline.
 * @...: Its arguments.
 */
__printf(1, 2) void note(const char *fmt, ...);

/**
 * warning() - Warn, on one line of stderr, "kverify: warning: ...".
 * @fmt: The message, as for printf(), without the newline.
 * @...: Its arguments.
 */
__printf(1, 2) void warning(const char *fmt, ...);

#endif
