/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_GUARD_H
#define KVERIFY_GUARD_H

#include <stddef.h>
#include <sys/types.h>

void fs_guard(const char *dir);
void fs_unguard_all(void);
const char *fs_guarded_root(const char *path);
int open_guarded(const char *path, int flags, mode_t mode);
int open_guarded_parent(const char *path, char *name, size_t size);

#endif
