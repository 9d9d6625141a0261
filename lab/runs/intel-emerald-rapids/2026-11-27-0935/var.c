#include <stdint.h>
#include "cpu/x86.h"
#ifdef NO_TUNE
static const struct fc_x86_tune fc_no_tune = {SIZE_MAX, 0, 0, SIZE_MAX, 0, 1};
#define FC_TUNE fc_no_tune
#endif
#include "x86/vec64.h"
#include "x86/vec_copy.h"
