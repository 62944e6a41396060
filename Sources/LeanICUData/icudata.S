// ICU's common data under the name ICU 76 looks for (`icudt76_dat`): defined here, the linker takes
// no copy from the toolchain's lib_FoundationICU.a. Release executables only (SANEHOSTS_LEAN_ICU):
// elsewhere the shared Foundation brings its own. Written by scripts/lean-icu.py; a toolchain with
// another ICU version looks for another name, finds its own data, and this goes unused.
#if defined(SANEHOSTS_LEAN_ICU) && defined(__linux__)
  .section .rodata.icudt76_dat,"a",@progbits
  .balign 16
  .globl icudt76_dat
  .type icudt76_dat,@object
icudt76_dat:
  .incbin "icudt76l-lean.dat"
  .size icudt76_dat, . - icudt76_dat
#endif
#if defined(__linux__) && defined(__ELF__)
  .section .note.GNU-stack,"",@progbits
#endif
