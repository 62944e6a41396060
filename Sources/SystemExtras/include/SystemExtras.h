// System calls the Swift Glibc module does not export.
#pragma once
#include <sys/types.h>
#if defined(__linux__) || defined(__APPLE__)
#include <sys/xattr.h>
#endif
