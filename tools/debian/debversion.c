// SPDX-License-Identifier: GPL-2.0
/*
 * Debian's version order, after dpkg's lib/dpkg/version.c: the epoch as a
 * number, then the upstream version, then the revision (after the last
 * '-'), each compared by verrevcmp(): runs of non-digits by character,
 * letters before the rest, '~' before anything, even the end; runs of
 * digits as numbers.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "debian/debversion.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int order(unsigned char c)
{
	if (is_digit(c))
		return 0;
	if (isalpha(c))
		return c;
	if (c == '~')
		return -1;
	return c ? c + 256 : 0;
}

/* The first @an bytes of @a against the first @bn of @b. */
static int verrevcmp(const char *a, size_t an, const char *b, size_t bn)
{
	const char *ae = a + an, *be = b + bn;

	while (a < ae || b < be) {
		int first_diff = 0;

		while ((a < ae && !is_digit(*a)) || (b < be && !is_digit(*b))) {
			int ac = a < ae ? order(*a) : 0;
			int bc = b < be ? order(*b) : 0;

			if (ac != bc)
				return ac - bc;
			a++;
			b++;
		}
		while (a < ae && *a == '0')
			a++;
		while (b < be && *b == '0')
			b++;
		while (a < ae && b < be && is_digit(*a) && is_digit(*b)) {
			if (!first_diff)
				first_diff = *a - *b;
			a++;
			b++;
		}
		if (a < ae && is_digit(*a))
			return 1;
		if (b < be && is_digit(*b))
			return -1;
		if (first_diff)
			return first_diff;
	}
	return 0;
}

struct debversion {
	unsigned long epoch;
	const char *upstream;
	size_t upstream_len;
	const char *revision;	/* "" when there is none */
};

static void split(const char *v, struct debversion *dv)
{
	const char *colon = strchr(v, ':'), *dash;

	dv->epoch = 0;
	if (colon) {
		dv->epoch = strtoul(v, NULL, 10);
		v = colon + 1;
	}
	dash = strrchr(v, '-');
	dv->upstream = v;
	dv->upstream_len = dash ? (size_t)(dash - v) : strlen(v);
	dv->revision = dash ? dash + 1 : "";
}

int debversion_cmp(const char *a, const char *b)
{
	struct debversion x, y;
	int c;

	split(a, &x);
	split(b, &y);
	if (x.epoch != y.epoch)
		return x.epoch < y.epoch ? -1 : 1;
	c = verrevcmp(x.upstream, x.upstream_len, y.upstream, y.upstream_len);
	if (c)
		return c;
	return verrevcmp(x.revision, strlen(x.revision), y.revision,
			 strlen(y.revision));
}
