// SPDX-License-Identifier: GPL-2.0
/*
 * Hashes for stamps, cache keys and the cache's content: FNV-1a for short
 * data, a four-lane multiply-rotate hash for trees and tarballs, and both
 * over a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/hash.h"
#include "lib/strbuf.h"

/* FNV-1a: stamps and cache keys, not security. */
uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t rotl64(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

#define MIX1 0x9e3779b185ebca87ULL
#define MIX2 0xc2b2ae3d27d4eb4fULL

/*
 * A content hash for large data (the cache's trees and tarballs): four
 * independent multiply-rotate lanes over 32-byte stripes, after xxHash64's
 * round, several GB/s.  It finds damage and different content, not an
 * attacker who writes the cache (who owns the run anyway).
 */
uint64_t hash_fast(uint64_t seed, const void *data, size_t len)
{
	const unsigned char *p = data, *end = p + len;
	uint64_t v[4] = { seed + MIX1 + MIX2, seed + MIX2, seed, seed - MIX1 };
	uint64_t h, w;
	int i;

	for (; end - p >= 32; p += 32)
		for (i = 0; i < 4; i++) {
			memcpy(&w, p + 8 * i, 8);
			v[i] = rotl64(v[i] + w * MIX2, 31) * MIX1;
		}
	h = rotl64(v[0], 1) + rotl64(v[1], 7) + rotl64(v[2], 12) +
	    rotl64(v[3], 18) + len;
	h = hash_bytes(h, p, end - p);
	h ^= h >> 33;
	h *= MIX2;
	h ^= h >> 29;
	h *= MIX1;
	return h ^ (h >> 32);
}

/*
 * hash_fast() of a file of any size, 1 MiB at a time: each block filled
 * whole (short reads do not change the result).
 */
int hash_file_fast(uint64_t *h, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t size = 1 << 20, have = 0;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return -1;
	buf = xmalloc(size);
	do {
		n = read(fd, buf + have, size - have);
		if (n > 0)
			have += n;
		if (have && (have == size || !n)) {
			*h = hash_fast(*h, buf, have);
			have = 0;
		}
	} while (n > 0 || (n < 0 && errno == EINTR));
	free(buf);
	close(fd);
	return n ? -1 : 0;
}

int hash_file(uint64_t *h, const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, path, (size_t)1 << 30);

	if (!ret)
		*h = hash_bytes(*h, sb.buf, sb.len);
	strbuf_release(&sb);
	return ret;
}
