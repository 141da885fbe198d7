/* SPDX-License-Identifier: MIT */
/* layout.h — checks used by the generated layout comparisons against libxcb. */
#include <stddef.h>
#include <stdio.h>
#define XW_CHECK_SIZE(a, b)                                                                                            \
    do {                                                                                                               \
        (*types)++;                                                                                                    \
        if (sizeof(a) != sizeof(b)) {                                                                                  \
            bad++;                                                                                                     \
            printf("size of %s is %zu, libxcb's %zu\n", #a, sizeof(a), sizeof(b));                                     \
        }                                                                                                              \
    } while (0)
/* A member is named as in libxcb (a different spelling does not compile: in C every
 * member name is libxcb's) and has libxcb's offset and size. */
#define XW_MEMBER_SIZE(t, m) sizeof(((t *)0)->m)
#define XW_CHECK_FIELD(a, b, m)                                                                                        \
    do {                                                                                                               \
        (*fields)++;                                                                                                   \
        if (offsetof(a, m) != offsetof(b, m) || XW_MEMBER_SIZE(a, m) != XW_MEMBER_SIZE(b, m)) {                        \
            bad++;                                                                                                     \
            printf("%s.%s is at %zu, %zu bytes; libxcb's at %zu, %zu bytes\n", #a, #m, offsetof(a, m),                 \
                   XW_MEMBER_SIZE(a, m), offsetof(b, m), XW_MEMBER_SIZE(b, m));                                        \
        }                                                                                                              \
    } while (0)
/* A member whose C++ spelling differs (gen/names.c): the C name's offset and size
 * against the C++ name's, which the C++ file put at cxx[2k] and cxx[2k + 1]. */
#define XW_CHECK_CXX(a, m, cxx, k)                                                                                     \
    do {                                                                                                               \
        (*fields)++;                                                                                                   \
        if (offsetof(a, m) != (cxx)[2 * (k)] || XW_MEMBER_SIZE(a, m) != (cxx)[2 * (k) + 1]) {                          \
            bad++;                                                                                                     \
            printf("%s.%s is at %zu, %zu bytes; its C++ spelling at %zu, %zu bytes\n", #a, #m, offsetof(a, m),         \
                   XW_MEMBER_SIZE(a, m), (cxx)[2 * (k)], (cxx)[2 * (k) + 1]);                                          \
        }                                                                                                              \
    } while (0)
