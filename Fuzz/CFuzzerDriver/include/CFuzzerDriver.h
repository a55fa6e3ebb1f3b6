// libFuzzer's driver, for fuzz targets whose `main` SwiftPM renames to `<module>_main`: that
// function calls LLVMFuzzerRunDriver (exported by libclang_rt.fuzzer) with the target's
// callback. Only referenced when built with -DFUZZING (make fuzz).
#ifndef BOARDY_CFUZZERDRIVER_H
#define BOARDY_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
