/* SPDX-License-Identifier: MIT */
/* callgrind.c — `xwbench --callgrind`: instructions per operation, counted by running single cases in a
 * child xwbench under valgrind's callgrind with instrumentation on only between meter_start and meter_stop. */
#include "callgrind.h"
#include "shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Callgrind's out file states the total of the counted events ("Ir") on a summary
 * or totals line. */
static double read_total(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[256];
    double total = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "summary:", 8) || !strncmp(line, "totals:", 7))
            total = strtod(strchr(line, ':') + 1, NULL);
    fclose(f);
    return total;
}

static int run_child(char *const argv[], int shim)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (shim && shim_setenv() < 0)
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

double callgrind_per_op(const char *case_name, const struct library *lib, const struct server *s, long n,
                        const char *dir)
{
    char self[4096], out[4096], outarg[4200], count[32];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return -1;
    self[len] = 0;
    snprintf(out, sizeof out, "%s/callgrind.%s.%s.out", dir, case_name, lib->name);
    for (char *p = out + strlen(dir); *p; p++)
        if (*p == ' ')
            *p = '_';
    snprintf(outarg, sizeof outarg, "--callgrind-out-file=%s", out);
    snprintf(count, sizeof count, "%ld", n);
    /* a child row's child runs the case of the library it stands for (and checks it is on the shim) */
    char *name = (char *)(lib->child_of ? lib->child_of->name : lib->name);
    char *argv[] = {"valgrind",
                    "--tool=callgrind",
                    "--instr-atstart=no",
                    "-q",
                    outarg,
                    self,
                    "--one",
                    (char *)case_name,
                    "--lib",
                    name,
                    "--display",
                    (char *)s->name,
                    "--count",
                    count,
                    lib->on_shim ? "--shim" : NULL,
                    NULL};
    if (run_child(argv, lib->on_shim) < 0) {
        fprintf(stderr, "xwbench: callgrind run of %s for %s failed\n", case_name, lib->name);
        return -1;
    }
    double total = read_total(out);
    return total < 0 ? -1 : total / (double)n;
}
