// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "lib/usage.h"

static const char warning_prefix[] = "warning: ";

/* The whole line in one write, so that lines of parallel runs stay whole. */
static void report(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "kverify: %s", prefix);
	strbuf_vaddf(&sb, fmt, ap);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stderr);
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(warning_prefix, fmt, ap);
	va_end(ap);
}
