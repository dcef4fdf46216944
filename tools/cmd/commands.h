/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every command of kverify, COMMAND(name) a line: its file of tools/cmd/
 * defines const struct command command_<name>.  cmd.h declares them and
 * kverify.c's commands[] lists them from here.  No include guard: each
 * includer defines COMMAND() first.
 */
COMMAND(sim)
COMMAND(latency)
COMMAND(verify)
COMMAND(bundle)
COMMAND(list)
COMMAND(summary)
COMMAND(matrix)
COMMAND(sweep)
COMMAND(backport)
COMMAND(debian_patches)
COMMAND(send)
COMMAND(am)
COMMAND(trailers)
COMMAND(range_diff)
COMMAND(reroll)
COMMAND(edit)
COMMAND(series)
COMMAND(regenerate)
