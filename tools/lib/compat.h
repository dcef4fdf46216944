/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_COMPAT_H
#define KVERIFY_COMPAT_H

/*
 * What every file may use, as git's git-compat-util.h holds it: the
 * kernel's spellings of two compiler idioms, and allocation that never
 * fails.
 */
#include <stddef.h>

/* As the kernel's compiler_attributes.h spells them. */
#define __printf(a, b) __attribute__(( \
	__format__(__printf__, a, b)))
#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

/**
 * xmalloc() - malloc() that never fails.
 * @n: Bytes; 0 is taken as 1.
 *
 * Out of memory, the program says so and exits with EXIT_TOOL.
 *
 * Return: The memory, the caller's to free().
 */
void *xmalloc(size_t n);

/**
 * xrealloc() - realloc() that never fails.
 * @p: The memory, or NULL.
 * @n: Its new size in bytes; 0 is taken as 1.
 *
 * Return: The memory, moved or not; exits with EXIT_TOOL out of memory.
 */
void *xrealloc(void *p, size_t n);

/**
 * xstrdup() - strdup() that never fails.
 * @s: The string.
 *
 * Return: A copy, the caller's to free().
 */
char *xstrdup(const char *s);

#endif
