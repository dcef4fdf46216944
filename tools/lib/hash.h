/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_HASH_H
#define KVERIFY_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The seed of a hash: FNV-1a's offset basis. */
#define HASH_INIT 0xcbf29ce484222325ULL

/**
 * hash_bytes() - FNV-1a of bytes, chained on a hash so far
 * @h: the hash so far (HASH_INIT to start)
 * @data: the bytes
 * @len: how many
 *
 * For stamps and cache keys, not for security.
 *
 * Return: the hash with @data added.
 */
uint64_t hash_bytes(uint64_t h, const void *data, size_t len);

/**
 * hash_file() - hash_bytes() of a file's content, chained on a hash
 * @h: the hash so far, updated when the file is read
 * @path: the file (at most 1 GiB)
 *
 * Return: 0, or negative if the file cannot be read (@h is unchanged).
 */
int hash_file(uint64_t *h, const char *path);

/**
 * hash_fast() - a content hash for large data
 * @seed: the hash so far, or a seed
 * @data: the bytes
 * @len: how many
 *
 * Four multiply-rotate lanes over 32-byte stripes, after xxHash64's round:
 * it finds damage and different content, not an attacker who writes the
 * cache.
 *
 * Return: the hash of @data under @seed.
 */
uint64_t hash_fast(uint64_t seed, const void *data, size_t len);

/**
 * hash_file_fast() - hash_fast() of a file of any size, chained on a hash
 * @h: the hash so far, updated block by block (1 MiB each)
 * @path: the file; a symlink is not followed
 *
 * Short reads do not change the result: each block is filled whole.
 *
 * Return: 0, or -1 if the file cannot be opened or read.
 */
int hash_file_fast(uint64_t *h, const char *path);

#endif
