/* SPDX-License-Identifier: MIT */
/* xlib_io.c — an Xlib program for the broken-connection test: it connects, says
 * "ready", waits for a line on stdin, then makes round trips until Xlib's fatal-I/O
 * handler prints its message (from errno) and exits. */
#include <X11/Xlib.h>
#include <stdio.h>

int main(void)
{
    Display *d = XOpenDisplay(NULL);
    if (!d)
        return 3;
    XSync(d, False);
    printf("ready\n");
    fflush(stdout);
    char line[16];
    if (!fgets(line, sizeof(line), stdin))
        return 4;
    for (;;)
        XSync(d, False);
}
