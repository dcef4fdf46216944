// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness: KTAP parsing of any console never crashes or leaks. */
#include <stddef.h>
#include <stdint.h>

#include "../../tools/core/ktap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ktap_result r = { 0 };

	ktap_parse((const char *)data, size, &r);
	ktap_count(&r, TEST_SKIP);
	ktap_clear(&r);
	return 0;
}
