/* layout.h — checks used by the generated layout comparisons against libxcb. */
#include <stddef.h>
#include <stdio.h>
#define XW_CHECK_SIZE(a, b)                                                                                       \
    do {                                                                                                         \
        (*types)++;                                                                                              \
        if (sizeof(a) != sizeof(b)) {                                                                            \
            bad++;                                                                                               \
            printf("size of %s is %zu, libxcb's %zu\n", #a, sizeof(a), sizeof(b));                              \
        }                                                                                                        \
    } while (0)
#define XW_CHECK_FIELD(a, b, f, g)                                                                                \
    do {                                                                                                         \
        (*fields)++;                                                                                             \
        if (offsetof(a, f) != offsetof(b, g)) {                                                                  \
            bad++;                                                                                               \
            printf("offset of %s.%s is %zu, libxcb's %zu\n", #a, #f, offsetof(a, f), offsetof(b, g));          \
        }                                                                                                        \
    } while (0)
