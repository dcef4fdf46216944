/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pipeline, top to bottom: a line a step, STEP(name) for the const
 * struct step name_step that tools/steps/step_<name>.c defines.  An index
 * here is the step's STEP_IDX_<name> (steps.h), its row in the reports and
 * the bit NEEDS() names it by.  No include guard: steps.h and verify.c read
 * it with their own STEP().
 */
STEP(fetch)
STEP(tree)
STEP(apply)
STEP(sim)
STEP(checkpatch)
STEP(cocci)
STEP(config)
STEP(build)
STEP(kabi)
STEP(selftests)
STEP(boot)
