#ifndef SANEHOSTS_FUZZER_DRIVER_H
#define SANEHOSTS_FUZZER_DRIVER_H

/// Runs libFuzzer on the target's `LLVMFuzzerTestOneInput` with the process's arguments and returns
/// its exit status.
///
/// SwiftPM links every executable with its `main` renamed to `<Module>_main` (so tests can import
/// executables), which leaves libFuzzer's own `main` unused: each target's main.swift calls this instead.
int sanehosts_fuzzer_main(int argc, char **argv);

#endif
