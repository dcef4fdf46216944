/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KVERIFY_LATENCY_H
#define KVERIFY_LATENCY_H

/*
 * kverify latency [TOLERANCE=]TRACE...: the v2 posting's table, on stdout
 * and in @results/latency/table.txt.
 */
int cmd_latency(int argc, char **argv, const char *results);

#endif
