/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_DEBVERSION_H
#define KVERIFY_DEBVERSION_H

/**
 * debversion_cmp() - Debian's order of two versions.
 * @a: A version, [epoch:]upstream[-revision].
 * @b: Another.
 *
 * The order dpkg --compare-versions has: the epochs as numbers, then the
 * upstream parts, then the revisions (after the last '-'): runs of digits
 * as numbers, other runs by character, letters before the rest and '~'
 * before anything, even the end.
 *
 * Return: < 0 when @a is older than @b, 0 when they are the same version,
 * > 0 when @a is newer.
 */
int debversion_cmp(const char *a, const char *b);

#endif
