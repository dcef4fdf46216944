/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_FSUTIL_H
#define KVERIFY_FSUTIL_H

#include <stdint.h>
#include <stddef.h>

#include "lib/strbuf.h"

int mkdir_p(const char *path);
int rm_rf(const char *path);
int is_dir(const char *path);
int is_file(const char *path);
int is_real_dir(const char *path);
int tree_confined(const char *root, struct strbuf *err);
int tree_normalize(const char *root, struct strbuf *err);
int tree_relink(const char *tree, const char *src, size_t *changed,
		struct strbuf *err);
int write_file(const char *path, const char *data, size_t len);
int write_file_atomic(const char *path, const char *data, size_t len);
int sync_tree(const char *dir);
int copy_file(const char *from, const char *to);
char *read_first_line(const char *path);
char *abspath(const char *path);
int path_under(const char *path, const char *dir);
void cache_name(char *s);
char *kernel_release(const char *src, int full);

uint64_t hash_bytes(uint64_t h, const void *data, size_t len);
int hash_file(uint64_t *h, const char *path);
uint64_t hash_fast(uint64_t seed, const void *data, size_t len);
int hash_file_fast(uint64_t *h, const char *path);
#define HASH_INIT 0xcbf29ce484222325ULL

/* The process's $TMPDIR, in the cache. */
struct tmpdir {
	char *path;
	int lockfd;
};

int tmpdir_enter(struct tmpdir *td, const char *cache);
int cache_check(const char *cache, struct strbuf *err);
void tmpdir_leave(struct tmpdir *td);

__printf(5, 6) int lock_in_cache(const char *cache, int wait, int *fd,
				 struct strbuf *err, const char *fmt, ...);
void unlock_file(int fd);
void lock_inherit(int fd);

#endif
