/* SPDX-License-Identifier: GPL-2.0 */
#ifndef VERSION_H
#define VERSION_H

/* git describe of the tree kverify was built from; build/version.c. */
extern const char kverify_version[];

#endif
