/* SPDX-License-Identifier: MIT */
/* report.c — turns the runs into the table (median [min–max] per case and library, ratios to libxcb)
 * and into results.csv, results.json and ratios.svg. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum metric { M_RATE, M_CPU, M_ALLOCS, M_SERVER, M_FAULTS };

struct stat3 {
    double med, min, max;
    int valid;
};

/* The per-run figure a metric stands for; NAN when not measured. */
static double value(const struct series *v, const struct sample *s, enum metric k)
{
    switch (k) {
    case M_RATE:
        return s->wall > 0 ? (double)v->ops * v->units_per_op / s->wall : NAN;
    case M_CPU:
        return s->cpu / (double)v->ops;
    case M_ALLOCS:
        return s->allocs == UINT64_MAX ? NAN : (double)s->allocs / (double)v->ops;
    case M_SERVER:
        return s->server_cpu < 0 ? NAN : s->server_cpu / (double)v->ops;
    case M_FAULTS:
        return (double)s->faults / (double)v->ops;
    }
    return NAN;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static struct stat3 stats(const struct series *v, enum metric k)
{
    double x[MAX_RUNS];
    int n = 0;
    for (int i = 0; i < v->runs; i++) {
        double d = value(v, &v->s[i], k);
        if (!isnan(d))
            x[n++] = d;
    }
    if (n == 0)
        return (struct stat3){NAN, NAN, NAN, 0};
    qsort(x, (size_t)n, sizeof x[0], cmp_double);
    double med = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
    return (struct stat3){med, x[0], x[n - 1], 1};
}

/* lib's series for the same case and server: libxcb's is the yardstick for the ratios. */
static const struct series *series_of(const struct series *v, int n, const struct series *of, const char *lib)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(v[i].case_name, of->case_name) && !strcmp(v[i].server, of->server) && !strcmp(v[i].lib, lib))
            return &v[i];
    return NULL;
}

static double ratio_to(const struct series *v, int n, const struct series *of, enum metric k, const char *lib)
{
    const struct series *b = series_of(v, n, of, lib);
    if (!b)
        return NAN;
    struct stat3 x = stats(of, k), y = stats(b, k);
    return x.valid && y.valid && y.med > 0 ? x.med / y.med : NAN;
}

static double ratio(const struct series *v, int n, const struct series *of, enum metric k)
{
    return ratio_to(v, n, of, k, of->base);
}

/* ---- number formatting ---- */

static void fmt_si(char *buf, size_t len, double x)
{
    static const char *suffix[] = {"", "k", "M", "G", "T"};
    int i = 0;
    while (fabs(x) >= 1000 && i < 4)
        x /= 1000, i++;
    snprintf(buf, len, x >= 100 || i == 0 ? "%.0f%s" : "%.3g%s", x, suffix[i]);
}

static void fmt_time(char *buf, size_t len, double s)
{
    if (isnan(s))
        snprintf(buf, len, "-");
    else if (s < 1e-7)
        snprintf(buf, len, "%.3g ns", s * 1e9);
    else if (s < 1e-6)
        snprintf(buf, len, "%.0f ns", s * 1e9);
    else if (s < 1e-3)
        snprintf(buf, len, "%.3g µs", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.3g ms", s * 1e3);
    else
        snprintf(buf, len, "%.3g s", s);
}

static void fmt_count(char *buf, size_t len, double x)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else if (x == 0 || x >= 10)
        snprintf(buf, len, "%.0f", x);
    else
        snprintf(buf, len, x < 0.01 ? "%.1e" : "%.2f", x);
}

static void fmt_ratio(char *buf, size_t len, double x)
{
    snprintf(buf, len, isnan(x) ? "-" : "%.2f×", x);
}

/* "median [min–max]" of one metric through one formatter. */
static void fmt_range(char *buf, size_t len, struct stat3 s, void (*f)(char *, size_t, double))
{
    char a[24], b[24], c[24];
    if (!s.valid) {
        snprintf(buf, len, "-");
        return;
    }
    f(a, sizeof a, s.med), f(b, sizeof b, s.min), f(c, sizeof c, s.max);
    snprintf(buf, len, "%s [%s–%s]", a, b, c);
}

/* printf's widths count bytes; these cells hold multi-byte UTF-8 (µ, –, ×). */
static void cell(FILE *f, const char *s, int width)
{
    int chars = 0;
    for (const char *p = s; *p; p++)
        chars += ((unsigned char)*p & 0xc0) != 0x80;
    fprintf(f, "%s%*s", s, width > chars ? width - chars : 0, "");
}

/* The table and chart group rows by case and server. */
static int new_group(const struct series *v, int i)
{
    return i == 0 || strcmp(v[i].case_name, v[i - 1].case_name) || strcmp(v[i].server, v[i - 1].server);
}

static void table_row(FILE *f, const struct series *v, int n, const struct series *s)
{
    char buf[128], rate[96];
    cell(f, s->lib, 16);
    fmt_range(rate, sizeof rate, stats(s, M_RATE), fmt_si);
    snprintf(buf, sizeof buf, "%s %s", rate, s->unit);
    cell(f, buf, 30);
    struct stat3 cpu = stats(s, M_CPU);
    fmt_range(buf, sizeof buf, cpu, fmt_time);
    cell(f, buf, 30);
    fmt_count(buf, sizeof buf, stats(s, M_ALLOCS).med);
    cell(f, buf, 10);
    fmt_count(buf, sizeof buf, stats(s, M_FAULTS).med);
    cell(f, buf, 10);
    fmt_time(buf, sizeof buf, stats(s, M_SERVER).med);
    cell(f, buf, 14);
    fmt_ratio(buf, sizeof buf, ratio(v, n, s, M_RATE));
    cell(f, buf, 9);
    fmt_ratio(buf, sizeof buf, ratio(v, n, s, M_CPU));
    cell(f, buf, 8);
    /* the row's other yardstick: xwire on a connection of its own for the drop-ins,
     * Xlib on libxcb for Xlib on xwire */
    double own_rate = s->vs ? ratio_to(v, n, s, M_RATE, s->vs) : NAN;
    double own_cpu = s->vs ? ratio_to(v, n, s, M_CPU, s->vs) : NAN;
    if (!isnan(own_cpu))
        fprintf(f, " (rate÷%s %.2f×, CPU÷%s %.2f×)", s->vs, own_rate, s->vs, own_cpu);
    /* and the floor, where the case has one: the raw client's rate in the same run */
    double floor_rate = !s->vs && strcmp(s->lib, s->floor) ? ratio_to(v, n, s, M_RATE, s->floor) : NAN;
    double floor_cpu = !s->vs && strcmp(s->lib, s->floor) ? ratio_to(v, n, s, M_CPU, s->floor) : NAN;
    if (!isnan(floor_rate))
        fprintf(f, " (rate÷raw %.2f×, CPU÷raw %.2f×)", floor_rate, floor_cpu);
    fprintf(f, "%s\n", s->failed ? "  FAILED" : "");
}

void report_table(FILE *f, const struct series *v, int n)
{
    fprintf(f,
            "\nmedian [min–max] over %d runs; CPU = client user+sys per operation; rate÷ and CPU÷ are "
            "ratios of medians to libxcb's\n",
            n ? v[0].runs : 0);
    for (int i = 0; i < n; i++) {
        if (v[i].depth)
            continue;
        if (new_group(v, i)) {
            fprintf(f, "\n%s — vs %s%s", v[i].case_label, v[i].server, v[i].server_note);
            if (v[i].runs != v[0].runs) /* a case with runs of its own (putimage) */
                fprintf(f, ", %d runs", v[i].runs);
            fputc('\n', f);
            cell(f, "  library", 16), cell(f, "rate", 30), cell(f, "client CPU/op", 30);
            cell(f, "allocs/op", 10), cell(f, "faults/op", 10), cell(f, "server CPU/op", 14), cell(f, "rate÷xcb", 9);
            fprintf(f, "CPU÷xcb\n");
        }
        table_row(f, v, n, &v[i]);
    }
}

/* ---- files ---- */

static FILE *open_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "xwbench: cannot write %s: %s\n", path, strerror(errno));
    return f;
}

static int write_csv(const char *dir, const struct series *v, int n)
{
    FILE *f = open_in(dir, "results.csv");
    if (!f)
        return -1;
    fprintf(f, "case,server,library,run,ops,wall_s,client_cpu_s,allocs,server_cpu_s,rate,rate_unit,"
               "client_cpu_ns_per_op,allocs_per_op,page_faults,context_switches,client_sys_s\n");
    for (int i = 0; i < n; i++)
        for (int r = 0; r < v[i].runs; r++) {
            const struct sample *s = &v[i].s[r];
            char allocs[32] = "", server[32] = "", per_op[32] = "";
            if (s->allocs != UINT64_MAX) {
                snprintf(allocs, sizeof allocs, "%llu", (unsigned long long)s->allocs);
                snprintf(per_op, sizeof per_op, "%.6g", value(&v[i], s, M_ALLOCS));
            }
            if (s->server_cpu >= 0)
                snprintf(server, sizeof server, "%.9f", s->server_cpu);
            fprintf(f, "%s,%s,%s,%d,%ld,%.9f,%.9f,%s,%s,%.6g,%s,%.4f,%s,%ld,%ld,%.9f\n", v[i].case_name, v[i].server,
                    v[i].lib, r, v[i].ops, s->wall, s->cpu, allocs, server, value(&v[i], s, M_RATE), v[i].unit,
                    value(&v[i], s, M_CPU) * 1e9, per_op, s->faults, s->switches, s->sys);
        }
    return fclose(f);
}

/* JSON has no NaN: unmeasured figures are null. */
static void json_num(FILE *f, const char *key, double x, const char *sep)
{
    if (isnan(x))
        fprintf(f, "\"%s\": null%s", key, sep);
    else
        fprintf(f, "\"%s\": %.6g%s", key, x, sep);
}

static void json_stat(FILE *f, const char *key, struct stat3 s)
{
    fprintf(f, "\"%s\": {", key);
    json_num(f, "median", s.med, ", ");
    json_num(f, "min", s.min, ", ");
    json_num(f, "max", s.max, "}, ");
}

static int write_json(const char *dir, const struct series *v, int n, const char *context)
{
    FILE *f = open_in(dir, "results.json");
    if (!f)
        return -1;
    fprintf(f, "{\"context\": \"%s\",\n \"results\": [\n", context);
    for (int i = 0; i < n; i++) {
        fprintf(f,
                "  {\"case\": \"%s\", \"server\": \"%s\", \"library\": \"%s\", \"ops\": %ld, \"runs\": %d, "
                "\"rate_unit\": \"%s\", \"failed\": %s, ",
                v[i].case_name, v[i].server, v[i].lib, v[i].ops, v[i].runs, v[i].unit, v[i].failed ? "true" : "false");
        json_stat(f, "rate", stats(&v[i], M_RATE));
        json_stat(f, "client_cpu_s_per_op", stats(&v[i], M_CPU));
        json_stat(f, "allocs_per_op", stats(&v[i], M_ALLOCS));
        json_stat(f, "server_cpu_s_per_op", stats(&v[i], M_SERVER));
        json_stat(f, "page_faults_per_op", stats(&v[i], M_FAULTS));
        json_num(f, "rate_vs_libxcb", ratio(v, n, &v[i], M_RATE), ", ");
        json_num(f, "cpu_vs_libxcb", ratio(v, n, &v[i], M_CPU), ", ");
        /* the row's second yardstick, when it has one */
        fprintf(f, "\"vs\": \"%s\", ", v[i].vs ? v[i].vs : "");
        json_num(f, "rate_vs", v[i].vs ? ratio_to(v, n, &v[i], M_RATE, v[i].vs) : NAN, ", ");
        json_num(f, "cpu_vs", v[i].vs ? ratio_to(v, n, &v[i], M_CPU, v[i].vs) : NAN, "}");
        fprintf(f, "%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, " ]}\n");
    return fclose(f);
}

/* ---- the chart: two panels, rate ÷ libxcb and libxcb's CPU ÷ the library's (both:
 * right of the line is better than libxcb), one row per library, grouped by case. Bars
 * grow from the 1× line on a log scale, so 4× better and 4× worse look alike. ---- */

#define SVG_ROW 18
#define SVG_LABEL 300
#define SVG_PANEL 300
#define SVG_HALF 110 /* pixels from the 1× line to the largest ratio's bar end */

static void svg_bar(FILE *f, int panel, int y, double r, double span)
{
    if (isnan(r) || isinf(r) || r <= 0)
        return;
    int mid = panel + SVG_PANEL / 2;
    int w = (int)(fabs(log2(r)) / span * SVG_HALF);
    int x = r >= 1 ? mid : mid - w;
    fprintf(f, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>", x, y + 3, w > 0 ? w : 1, SVG_ROW - 6,
            r >= 1 ? "#3a7" : "#c54");
    if (r >= 1)
        fprintf(f, "<text x='%d' y='%d'>%.2f×</text>\n", mid + w + 4, y + SVG_ROW - 5, r);
    else
        fprintf(f, "<text x='%d' y='%d' text-anchor='end'>%.2f×</text>\n", mid - w - 4, y + SVG_ROW - 5, r);
}

static int write_svg(const char *dir, const struct series *v, int n)
{
    double span = 1; /* largest |log2 ratio| shown, at least 2× */
    int rows = 0;
    for (int i = 0; i < n; i++) {
        if (v[i].depth)
            continue;
        double a = ratio(v, n, &v[i], M_RATE), b = ratio(v, n, &v[i], M_CPU);
        if (a > 0 && !isinf(a))
            span = fmax(span, fabs(log2(a)));
        if (b > 0 && !isinf(b))
            span = fmax(span, fabs(log2(b)));
        rows += 1 + new_group(v, i);
    }
    FILE *f = open_in(dir, "ratios.svg");
    if (!f)
        return -1;
    int width = SVG_LABEL + 2 * SVG_PANEL + 50, height = (rows + 2) * SVG_ROW;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
            "font-size='11'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            width, height);
    fprintf(f, "<text x='%d' y='13' font-weight='bold' text-anchor='middle'>rate ÷ libxcb</text>",
            SVG_LABEL + SVG_PANEL / 2);
    fprintf(f,
            "<text x='%d' y='13' font-weight='bold' text-anchor='middle'>libxcb client CPU ÷ this "
            "library's</text>\n",
            SVG_LABEL + SVG_PANEL + SVG_PANEL / 2);
    int y = SVG_ROW;
    for (int i = 0; i < n; i++, y += SVG_ROW) {
        if (v[i].depth) {
            y -= SVG_ROW;
            continue;
        }
        if (new_group(v, i)) {
            fprintf(f, "<text x='4' y='%d' font-weight='bold'>%s — vs %s</text>\n", y + SVG_ROW - 5, v[i].case_label,
                    v[i].server);
            y += SVG_ROW;
        }
        fprintf(f, "<text x='16' y='%d'>%s</text>", y + SVG_ROW - 5, v[i].lib);
        svg_bar(f, SVG_LABEL, y, ratio(v, n, &v[i], M_RATE), span);
        svg_bar(f, SVG_LABEL + SVG_PANEL, y, 1 / ratio(v, n, &v[i], M_CPU), span);
    }
    for (int p = 0; p < 2; p++) { /* where libxcb stands */
        int x = SVG_LABEL + p * SVG_PANEL + SVG_PANEL / 2;
        fprintf(f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='#333' stroke-dasharray='3,3'/>\n", x, SVG_ROW, x,
                height - SVG_ROW);
    }
    fprintf(f, "</svg>\n");
    return fclose(f);
}

/* ---- the pipeline-depth curve ---- */

/* Servers and libraries of the curve's series, in order of first appearance. */
static int distinct(const struct series *v, int n, int server, const char **out, int max)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!v[i].depth)
            continue;
        const char *name = server ? v[i].server : v[i].lib;
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= !strcmp(out[j], name);
        if (!seen && k < max)
            out[k++] = name;
    }
    return k;
}

static const struct series *curve_point(const struct series *v, int n, const char *server, const char *lib, int d)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (v[i].depth && !strcmp(v[i].server, server) && !strcmp(v[i].lib, lib) && k++ == d)
            return &v[i];
    return NULL;
}

#define CURVE_MAX 8

void report_curve(FILE *f, const struct series *v, int n)
{
    const char *servers[CURVE_MAX], *libs[CURVE_MAX];
    int ns = distinct(v, n, 1, servers, CURVE_MAX), nl = distinct(v, n, 0, libs, CURVE_MAX);
    if (!ns || !nl)
        return;
    fprintf(f, "\nInternAtom pipeline depth: client CPU per request, median [min–max]\n");
    for (int s = 0; s < ns; s++) {
        fprintf(f, "\n  vs %s\n", servers[s]);
        cell(f, "  library", 16);
        for (int d = 0; curve_point(v, n, servers[s], libs[0], d); d++) {
            char h[32];
            snprintf(h, sizeof h, "depth %ld", curve_point(v, n, servers[s], libs[0], d)->depth);
            cell(f, h, 26);
        }
        fputc('\n', f);
        for (int l = 0; l < nl; l++) {
            cell(f, libs[l], 16);
            const struct series *p;
            for (int d = 0; (p = curve_point(v, n, servers[s], libs[l], d)); d++) {
                char buf[96];
                fmt_range(buf, sizeof buf, stats(p, M_CPU), fmt_time);
                cell(f, p->failed ? "FAILED" : buf, 26);
            }
            fputc('\n', f);
        }
        /* The kernel's share at depth: every page the pending store first touches is a fault. */
        fprintf(f, "  page faults per 1k requests, median\n");
        for (int l = 0; l < nl; l++) {
            cell(f, libs[l], 16);
            const struct series *p;
            for (int d = 0; (p = curve_point(v, n, servers[s], libs[l], d)); d++) {
                char buf[32];
                fmt_count(buf, sizeof buf, stats(p, M_FAULTS).med * 1000);
                cell(f, p->failed ? "FAILED" : buf, 26);
            }
            fputc('\n', f);
        }
    }
}

/* One panel per server, depth on a log x axis, client CPU per request on a log y
 * axis shared by all panels, one line per library. */
#define DSVG_W 260
#define DSVG_H 220
#define DSVG_M 40
#define DSVG_DEPTH 1048576.0 /* the deepest point, at the right edge */

static double curve_y(double ns, double lo, double hi)
{
    return DSVG_M + (DSVG_H - 2 * DSVG_M) * (1 - (log10(ns) - lo) / (hi - lo));
}

static void depth_panel(FILE *f, const struct series *v, int n, const char *server, const char **libs, int nl, int x0,
                        double lo, double hi)
{
    static const char *const colours[] = {"#c54", "#37a", "#3a7", "#a73", "#777", "#a3a", "#333", "#7a3"};
    fprintf(f, "<text x='%d' y='16' font-weight='bold' text-anchor='middle'>vs %s</text>\n", x0 + DSVG_W / 2, server);
    for (double e = ceil(lo); e <= hi; e++)
        fprintf(f,
                "<line x1='%d' x2='%d' y1='%.1f' y2='%.1f' stroke='#ddd'/><text x='%d' y='%.1f' "
                "text-anchor='end'>%g ns</text>\n",
                x0 + DSVG_M, x0 + DSVG_W - 10, curve_y(pow(10, e), lo, hi), curve_y(pow(10, e), lo, hi),
                x0 + DSVG_M - 2, curve_y(pow(10, e), lo, hi) + 4, pow(10, e));
    for (int l = 0; l < nl; l++) {
        const struct series *p;
        fprintf(f, "<polyline fill='none' stroke='%s' stroke-width='2' points='", colours[l % 8]);
        for (int d = 0; (p = curve_point(v, n, server, libs[l], d)); d++) {
            double ns = stats(p, M_CPU).med * 1e9;
            if (stats(p, M_CPU).valid && ns > 0)
                fprintf(f, "%.1f,%.1f ",
                        x0 + DSVG_M + (DSVG_W - DSVG_M - 20) * log10((double)p->depth) / log10(DSVG_DEPTH),
                        curve_y(ns, lo, hi));
        }
        fprintf(f, "'/>\n<text x='%d' y='%d' fill='%s'>%s</text>\n", x0 + DSVG_M + 4, DSVG_H + 12 + 12 * l,
                colours[l % 8], libs[l]);
    }
    for (int d = 0; curve_point(v, n, server, libs[0], d); d++) {
        long depth = curve_point(v, n, server, libs[0], d)->depth;
        fprintf(f, "<text x='%.1f' y='%d' text-anchor='middle'>%ld</text>\n",
                x0 + DSVG_M + (DSVG_W - DSVG_M - 20) * log10((double)depth) / log10(DSVG_DEPTH), DSVG_H - DSVG_M + 14,
                depth);
    }
}

static int write_depth_svg(const char *dir, const struct series *v, int n)
{
    const char *servers[CURVE_MAX], *libs[CURVE_MAX];
    int ns = distinct(v, n, 1, servers, CURVE_MAX), nl = distinct(v, n, 0, libs, CURVE_MAX);
    if (!ns || !nl)
        return 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; i++) {
        struct stat3 c = stats(&v[i], M_CPU);
        if (v[i].depth && c.valid && c.med > 0) {
            lo = fmin(lo, log10(c.med * 1e9));
            hi = fmax(hi, log10(c.med * 1e9));
        }
    }
    if (!(lo <= hi))
        return 0;
    lo = floor(lo), hi = ceil(hi) > lo ? ceil(hi) : lo + 1;
    FILE *f = open_in(dir, "depth.svg");
    if (!f)
        return -1;
    fprintf(f,
            "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' font-family='sans-serif' "
            "font-size='11'>\n<rect width='100%%' height='100%%' fill='white'/>\n",
            ns * DSVG_W, DSVG_H + 20 + 12 * nl);
    for (int s = 0; s < ns; s++)
        depth_panel(f, v, n, servers[s], libs, nl, s * DSVG_W, lo, hi);
    fprintf(f,
            "<text x='4' y='%d'>client CPU (user+sys) per InternAtom against requests outstanding "
            "(x: 1 to 1048576, log)</text>\n</svg>\n",
            DSVG_H - 4);
    return fclose(f);
}

int report_files(const char *dir, const struct series *v, int n, const char *context)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        fprintf(stderr, "xwbench: cannot create %s: %s\n", dir, strerror(errno));
        return -1;
    }
    int r = write_csv(dir, v, n);
    r |= write_json(dir, v, n, context);
    r |= write_svg(dir, v, n);
    r |= write_depth_svg(dir, v, n);
    return r ? -1 : 0;
}
