/* plot.h: a log-log line plot written to PNG, for the scaling run of tools/bench.c. Draws with
   the 2D part of examples/snapshot.h (stb_image_write underneath). Header-only, static. */
#ifndef RIGID_PLOT_H
#define RIGID_PLOT_H

#include <math.h>
#include <stdio.h>

#include "examples/snapshot.h"

#define PLOT_MAX_POINTS 16

typedef struct plot_series {
    const char *name;
    double x[PLOT_MAX_POINTS], y[PLOT_MAX_POINTS];  /* positive values; others are skipped */
    int count;
} plot_series;

static const unsigned char plot__colors[][3] = {{214, 39, 40}, {31, 119, 180}, {44, 160, 44}, {148, 103, 189}};

/* Decade range [lo, hi] (powers of ten) covering the positive values, at least one decade. */
static void plot__decades(double min_value, double max_value, int *lo, int *hi) {
    *lo = (int)floor(log10(min_value) + 1e-9);
    *hi = (int)ceil(log10(max_value) - 1e-9);
    if (*hi <= *lo) *hi = *lo + 1;
}

/* Labels a power of ten times 1, 2 or 5 without trailing zeros. */
static void plot__label(char *buffer, size_t size, double value) {
    if (value >= 1e5 || value < 1e-3) snprintf(buffer, size, "%.0e", value);
    else snprintf(buffer, size, "%g", value);
}

/* ms/step (y) against body count (x), both axes logarithmic; ticks at 1, 2, 5 per decade.
   Returns 1 when the PNG was written. */
static int plot_loglog(const char *path, const char *title, const char *x_label, const char *y_label,
                       const plot_series *series, int series_count) {
    const int ss = 2, width = 800 * ss, height = 560 * ss;
    const int left = 90 * ss, right = width - 50 * ss, top = 70 * ss, bottom = height - 70 * ss;
    snap_image im;
    snap_rgb ink = snap_rgb_make(40, 40, 48), grid = snap_rgb_make(218, 220, 226), minor = snap_rgb_make(238, 239, 243);
    double x_min = 0, x_max = 0, y_min = 0, y_max = 0;
    int xlo, xhi, ylo, yhi, s, i, d, m, any = 0, ok;
    static const int mantissas[3] = {1, 2, 5};

    for (s = 0; s < series_count; ++s)
        for (i = 0; i < series[s].count; ++i) {
            double x = series[s].x[i], y = series[s].y[i];
            if (!(x > 0) || !(y > 0)) continue;
            if (!any || x < x_min) x_min = x;
            if (!any || x > x_max) x_max = x;
            if (!any || y < y_min) y_min = y;
            if (!any || y > y_max) y_max = y;
            any = 1;
        }
    if (!any) { x_min = 1; x_max = 10; y_min = 1; y_max = 10; }
    plot__decades(x_min, x_max, &xlo, &xhi);
    plot__decades(y_min, y_max, &ylo, &yhi);
    if (!snap_image_init(&im, width, height, snap_rgb_make(255, 255, 255))) return 0;

#define PLOT_X(v) (left + (log10(v) - xlo) / (double)(xhi - xlo) * (right - left))
#define PLOT_Y(v) (bottom - (log10(v) - ylo) / (double)(yhi - ylo) * (bottom - top))
    /* grid and tick labels */
    for (d = xlo; d <= xhi; ++d)
        for (m = 0; m < 3; ++m) {
            double v = mantissas[m] * pow(10, d), x;
            char label[32];
            if (d == xhi && m > 0) break;
            x = PLOT_X(v);
            snap_line(&im, x, top, x, bottom, m ? minor : grid, ss);
            plot__label(label, sizeof label, v);
            snap_text(&im, (int)x - snap_text_width(label, 2 * ss) / 2, bottom + 8 * ss, label, ink, 2 * ss);
        }
    for (d = ylo; d <= yhi; ++d)
        for (m = 0; m < 3; ++m) {
            double v = mantissas[m] * pow(10, d), y;
            char label[32];
            if (d == yhi && m > 0) break;
            y = PLOT_Y(v);
            snap_line(&im, left, y, right, y, m ? minor : grid, ss);
            plot__label(label, sizeof label, v);
            snap_text(&im, left - 8 * ss - snap_text_width(label, 2 * ss), (int)y - 7 * ss, label, ink, 2 * ss);
        }
    snap_line(&im, left, bottom, right, bottom, ink, ss);
    snap_line(&im, left, top, left, bottom, ink, ss);
    snap_text(&im, left, 14 * ss, title, ink, 2 * ss);
    snap_text(&im, left - snap_text_width(y_label, 2 * ss) / 2, top - 26 * ss, y_label, ink, 2 * ss);
    snap_text(&im, (left + right - snap_text_width(x_label, 2 * ss)) / 2, bottom + 36 * ss, x_label, ink, 2 * ss);

    /* series: lines, square markers, legend */
    for (s = 0; s < series_count; ++s) {
        const unsigned char *k = plot__colors[s % 4];
        snap_rgb c = snap_rgb_make(k[0], k[1], k[2]);
        double px = 0, py = 0;
        int drawn = 0;
        for (i = 0; i < series[s].count; ++i) {
            double x, y;
            if (!(series[s].x[i] > 0) || !(series[s].y[i] > 0)) continue;
            x = PLOT_X(series[s].x[i]);
            y = PLOT_Y(series[s].y[i]);
            if (drawn) snap_line(&im, px, py, x, y, c, 3 * ss);
            snap_fill_rect(&im, (int)x - 5 * ss, (int)y - 5 * ss, (int)x + 5 * ss, (int)y + 5 * ss, c);
            px = x;
            py = y;
            drawn = 1;
        }
        snap_fill_rect(&im, left + 16 * ss, top + (14 + 22 * s) * ss, left + 40 * ss, top + (18 + 22 * s) * ss, c);
        snap_text(&im, left + 48 * ss, top + (9 + 22 * s) * ss, series[s].name ? series[s].name : "?", ink, 2 * ss);
    }
#undef PLOT_X
#undef PLOT_Y
    ok = snap_image_write_png(&im, path, ss);
    snap_image_free(&im);
    return ok;
}

#endif
