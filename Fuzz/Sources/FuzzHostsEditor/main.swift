import FuzzerDriver

#if canImport(Glibc)
  import Glibc
#endif

// libFuzzer drives the target: see FuzzerDriver.h.
exit(sanehosts_fuzzer_main(CommandLine.argc, CommandLine.unsafeArgv))
