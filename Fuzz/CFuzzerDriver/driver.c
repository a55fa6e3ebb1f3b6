// The declarations are in include/CFuzzerDriver.h; libFuzzer defines them (make fuzz).
#include "CFuzzerDriver.h"

int boardy_cfuzzerdriver_present(void) { return 1; }
