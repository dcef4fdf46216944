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
int write_file(const char *path, const char *data, size_t len);
int write_file_atomic(const char *path, const char *data, size_t len);
int sync_tree(const char *dir);
int copy_file(const char *from, const char *to);
char *read_first_line(const char *path);
char *abspath(const char *path);
void cache_name(char *s);
char *kernel_release(const char *src, int full);

int cache_check(const char *cache, struct strbuf *err);

#endif
