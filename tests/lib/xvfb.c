/* SPDX-License-Identifier: MIT */
/* xvfb.c — a private Xvfb per test suite, found through -displayfd. */
#include "xvfb.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void child(int wfd, const char *const *extra)
{
    char fdarg[16];
    const char *prog = getenv("XVFB");
    if (!prog || !*prog)
        prog = "Xvfb";
    snprintf(fdarg, sizeof(fdarg), "%d", wfd);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
    }
    const char *argv[32] = {prog, "-displayfd", fdarg, "-nolisten", "tcp", "-screen", "0", "640x480x24", "-noreset"};
    size_t n = 9;
    while (extra && *extra && n < sizeof(argv) / sizeof(argv[0]) - 1)
        argv[n++] = *extra++;
    execvp(prog, (char *const *)argv);
    _exit(127);
}

/* Reads "N\n" from the pipe within the deadline. */
static int read_display(int rfd, int *display)
{
    char buf[32];
    size_t n = 0;
    while (n < sizeof(buf) - 1) {
        struct pollfd p = {.fd = rfd, .events = POLLIN};
        if (poll(&p, 1, 20000) <= 0)
            return -1;
        ssize_t r = read(rfd, buf + n, sizeof(buf) - 1 - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        n += (size_t)r;
        buf[n] = '\0';
        if (strchr(buf, '\n'))
            break;
    }
    *display = atoi(buf);
    return 0;
}

int xvfb_start(struct xvfb *x)
{
    return xvfb_start_with(x, NULL);
}

int xvfb_start_with(struct xvfb *x, const char *const *extra)
{
    int p[2];
    memset(x, 0, sizeof(*x));
    if (pipe(p) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        close(p[0]);
        child(p[1], extra);
    }
    close(p[1]);
    x->pid = pid;
    int r = read_display(p[0], &x->display);
    close(p[0]);
    if (r < 0) {
        xvfb_stop(x);
        return -1;
    }
    snprintf(x->name, sizeof(x->name), ":%d", x->display);
    return 0;
}

void xvfb_stop(struct xvfb *x)
{
    if (x->pid > 0) {
        kill(x->pid, SIGTERM);
        waitpid(x->pid, NULL, 0);
    }
    x->pid = 0;
}

void xvfb_kill(struct xvfb *x)
{
    if (x->pid > 0) {
        kill(x->pid, SIGKILL);
        waitpid(x->pid, NULL, 0);
    }
    x->pid = 0;
}
