/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The SVG plot (svg.h). Every series element carries data-device (and
 * data-size or data-percentile), so a test or a script can find a
 * device's series without reading pixels.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "svg.h"

#define W 960
#define PANEL_H 380
#define LEFT 80
#define RIGHT 200			/* the legend */
#define TOP 50
#define BOTTOM 60
#define PLOT_W (W - LEFT - RIGHT)
#define PLOT_H (PANEL_H - TOP - BOTTOM)

static const char *const colours[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define N_COLOURS (sizeof(colours) / sizeof(colours[0]))

static void
xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, f);
		}
	}
}

/* A round step near span / 5: 1, 2 or 5 times a power of ten. */
static double
nice_step(double span)
{
	double raw = span / 5, mag, m;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	m = raw / mag;
	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * mag;
}

/* The value a size's bar shows: NDR, or PDR / MRR for those searches. */
static const struct gen_rate_summary *
main_rate(const struct gen_summary *s, const struct gen_size_summary *ss,
	  struct gen_rate_summary *mrr)
{
	if (s->kind == GEN_SEARCH_NDR)
		return &ss->ndr;
	if (s->kind == GEN_SEARCH_PDR)
		return &ss->pdr;
	memset(mrr, 0, sizeof(*mrr));
	mrr->found = ss->has_mrr;
	mrr->pps = ss->mrr_pps;
	mrr->limit = ss->mrr_limit;
	return mrr;
}

/* Sizes in any summary, ascending, IMIX last. */
static unsigned int
all_sizes(const struct gen_summary *s, unsigned int n, uint16_t *out)
{
	unsigned int d, i, k, m = 0;

	for (d = 0; d < n; d++)
		for (i = 0; i < s[d].n_sizes; i++) {
			uint16_t z = s[d].sizes[i].size;

			for (k = 0; k < m && out[k] != z; k++)
				;
			if (k == m && m < GEN_SEARCH_MAX_SIZES)
				out[m++] = z;
		}
	for (i = 1; i < m; i++)		/* insertion sort; imix (0) last */
		for (k = i; k > 0; k--) {
			uint16_t a = out[k - 1], b = out[k];

			if ((a == GEN_SIZE_IMIX ? 65535 : a) <=
			    (b == GEN_SIZE_IMIX ? 65535 : b))
				break;
			out[k - 1] = b;
			out[k] = a;
		}
	return m;
}

static const struct gen_size_summary *
size_of(const struct gen_summary *s, uint16_t size)
{
	unsigned int i;

	for (i = 0; i < s->n_sizes; i++)
		if (s->sizes[i].size == size)
			return &s->sizes[i];
	return NULL;
}

static void
legend(FILE *f, const struct gen_summary *s, unsigned int n, int y0)
{
	unsigned int d;

	fprintf(f, "<g class=\"legend\">\n");
	for (d = 0; d < n; d++) {
		int y = y0 + 20 * (int)d;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" "
			"fill=\"%s\"/><text x=\"%d\" y=\"%d\" "
			"class=\"legend-device\">", W - RIGHT + 20, y,
			colours[d % N_COLOURS], W - RIGHT + 40, y + 12);
		xml_text(f, s[d].device[0] ? s[d].device : "(unnamed)");
		fprintf(f, "</text>\n");
	}
	fprintf(f, "</g>\n");
}

static void
throughput_panel(FILE *f, const struct gen_summary *s, unsigned int n)
{
	uint16_t sizes[GEN_SEARCH_MAX_SIZES];
	unsigned int m = all_sizes(s, n, sizes), i, d;
	double top = 0, step, v, group_w, bar_w;
	const int y0 = TOP, base = TOP + PLOT_H;
	char sz[8];

	for (d = 0; d < n; d++)
		for (i = 0; i < s[d].n_sizes; i++) {
			struct gen_rate_summary tmp;
			const struct gen_rate_summary *r =
				main_rate(&s[d], &s[d].sizes[i], &tmp);

			if (r->found && r->pps / 1e6 > top)
				top = r->pps / 1e6;
			if (s[d].kind == GEN_SEARCH_NDR &&
			    s[d].sizes[i].pdr.found &&
			    s[d].sizes[i].pdr.pps / 1e6 > top)
				top = s[d].sizes[i].pdr.pps / 1e6;
		}
	step = nice_step(top > 0 ? top : 1);
	top = step * ceil((top > 0 ? top : 1) / step);
	fprintf(f, "<g class=\"panel\" id=\"throughput\">\n<text x=\"%d\" "
		"y=\"%d\" font-size=\"16\">Zero-loss throughput (NDR; PDR "
		"marked above) by frame size</text>\n", LEFT, y0 - 20);
	for (v = 0; v <= top + step / 2; v += step) {
		double y = base - v / top * PLOT_H;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\" class=\"tick\">%g</text>\n", LEFT,
			y, LEFT + PLOT_W, y, LEFT - 6, y + 4, v);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"black\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"black\"/>\n", LEFT, y0, LEFT, base, LEFT,
		base, LEFT + PLOT_W, base);
	fprintf(f, "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 %d %d)\" "
		"text-anchor=\"middle\">Mpps</text>\n", LEFT - 50,
		y0 + PLOT_H / 2, LEFT - 50, y0 + PLOT_H / 2);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">frame "
		"size (bytes, with FCS)</text>\n", LEFT + PLOT_W / 2,
		base + 40);
	group_w = m ? (double)PLOT_W / m : PLOT_W;
	bar_w = group_w * 0.8 / (n ? n : 1);
	for (i = 0; i < m; i++) {
		double gx = LEFT + group_w * i + group_w * 0.1;

		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			"class=\"tick\">%s</text>\n", LEFT + group_w * (i + 0.5),
			base + 18, gen_size_text(sizes[i], sz, sizeof(sz)));
		for (d = 0; d < n; d++) {
			const struct gen_size_summary *ss =
				size_of(&s[d], sizes[i]);
			struct gen_rate_summary tmp;
			const struct gen_rate_summary *r;
			double h, x = gx + bar_w * d;

			if (ss == NULL)
				continue;
			r = main_rate(&s[d], ss, &tmp);
			h = r->found ? r->pps / 1e6 / top * PLOT_H : 0;
			if (!(h > 0))
				h = 0;		/* a file's negative rate */
			fprintf(f, "<rect class=\"bar\" data-device=\"");
			xml_text(f, s[d].device);
			fprintf(f, "\" data-size=\"%s\" data-mpps=\"%.6f\" "
				"x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"><title>", sz,
				r->found ? r->pps / 1e6 : 0, x, base - h,
				bar_w * 0.95, h, colours[d % N_COLOURS]);
			xml_text(f, s[d].device);
			fprintf(f, " %s B: %.4f Mpps, %.3f Gbit/s L1, limit "
				"%s</title></rect>\n", sz,
				r->found ? r->pps / 1e6 : 0,
				r->found ? gen_l1_bps(ss->size, r->pps) / 1e9 : 0,
				gen_limit_name(r->limit));
			if (!r->found)
				fprintf(f, "<text x=\"%.1f\" y=\"%d\" "
					"text-anchor=\"middle\" font-size=\"10\">"
					"none</text>\n", x + bar_w / 2,
					base - 3);
			if (r->found && r->limit == GEN_LIMIT_GENERATOR)
				fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" "
					"text-anchor=\"middle\" font-size=\"10\">"
					"G</text>\n", x + bar_w / 2,
					base - h - 3);
			if (s[d].kind == GEN_SEARCH_NDR && ss->pdr.found) {
				double py = base - ss->pdr.pps / 1e6 / top *
						   PLOT_H;

				fprintf(f, "<line class=\"pdr\" data-device=\"");
				xml_text(f, s[d].device);
				fprintf(f, "\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					"y2=\"%.1f\" stroke=\"black\" "
					"stroke-width=\"2\"/>\n", x, py,
					x + bar_w * 0.95, py);
			}
		}
	}
	legend(f, s, n, y0);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">G: the "
		"generator set</text><text x=\"%d\" y=\"%d\" font-size=\"11\">"
		"the limit, not the device</text><text x=\"%d\" y=\"%d\" "
		"font-size=\"11\">none: no rate passed</text>\n",
		W - RIGHT + 20, y0 + 20 * (int)n + 20, W - RIGHT + 20,
		y0 + 20 * (int)n + 34, W - RIGHT + 20, y0 + 20 * (int)n + 52);
	fprintf(f, "</g>\n");
}

/* The size whose latency a device's lines show: its first with any. */
static const struct gen_size_summary *
latency_size(const struct gen_summary *s)
{
	unsigned int i;

	for (i = 0; i < s->n_sizes; i++)
		if (s->sizes[i].n_lat > 0)
			return &s->sizes[i];
	return NULL;
}

static double
pct_of(const struct gen_latency *l, unsigned int p)
{
	return p == 0 ? l->p50_ns : p == 1 ? l->p99_ns : l->p999_ns;
}

static void
latency_panel(FILE *f, const struct gen_summary *s, unsigned int n)
{
	static const char *const pname[] = { "p50", "p99", "p99.9" };
	static const char *const dash[] = { "", "6,3", "2,3" };
	static const char *const loads[GEN_LAT_POINTS] = { "min", "10%",
							   "50%", "90%" };
	static const double shares[GEN_LAT_POINTS] = { 0, 0.1, 0.5, 0.9 };
	const int y0 = PANEL_H + TOP, base = PANEL_H + TOP + PLOT_H;
	double lo = INFINITY, hi = 0, e, x_step = (double)PLOT_W /
							  GEN_LAT_POINTS;
	unsigned int d, k, p;
	char sz[8];

	for (d = 0; d < n; d++) {
		const struct gen_size_summary *ss = latency_size(&s[d]);

		for (k = 0; ss != NULL && k < ss->n_lat; k++)
			for (p = 0; p < 3; p++) {
				double v = pct_of(&ss->lat[k].lat, p);

				if (v > 0 && v < lo)
					lo = v;
				if (v > hi)
					hi = v;
			}
	}
	if (!(hi > 0)) {
		lo = 100;
		hi = 1000;
	}
	lo = floor(log10(lo));
	hi = ceil(log10(hi));
	if (hi <= lo)
		hi = lo + 1;
	fprintf(f, "<g class=\"panel\" id=\"latency\">\n<text x=\"%d\" "
		"y=\"%d\" font-size=\"16\">Latency by load (share of the NDR; "
		"min: the minimal load)</text>\n", LEFT, y0 - 20);
	for (e = lo; e <= hi; e++) {
		double y = base - (e - lo) / (hi - lo) * PLOT_H, ns = pow(10, e);

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\" class=\"tick\">", LEFT, y,
			LEFT + PLOT_W, y, LEFT - 6, y + 4);
		if (ns >= 1e6)
			fprintf(f, "%g ms", ns / 1e6);
		else if (ns >= 1e3)
			fprintf(f, "%g us", ns / 1e3);
		else
			fprintf(f, "%g ns", ns);
		fprintf(f, "</text>\n");
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"black\"/><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"black\"/>\n", LEFT, y0, LEFT, base, LEFT,
		base, LEFT + PLOT_W, base);
	fprintf(f, "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 %d %d)\" "
		"text-anchor=\"middle\">latency (log scale)</text>\n",
		LEFT - 60, y0 + PLOT_H / 2, LEFT - 60, y0 + PLOT_H / 2);
	for (k = 0; k < GEN_LAT_POINTS; k++)
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			"class=\"tick\">%s</text>\n", LEFT + x_step * (k + 0.5),
			base + 18, loads[k]);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">offered "
		"load</text>\n", LEFT + PLOT_W / 2, base + 40);
	for (d = 0; d < n; d++) {
		const struct gen_size_summary *ss = latency_size(&s[d]);

		if (ss == NULL)
			continue;
		for (p = 0; p < 3; p++) {
			fprintf(f, "<polyline class=\"latency\" data-device=\"");
			xml_text(f, s[d].device);
			fprintf(f, "\" data-percentile=\"%s\" data-size=\"%s\" "
				"fill=\"none\" stroke=\"%s\" stroke-width=\"2\""
				"%s%s%s points=\"", pname[p],
				gen_size_text(ss->size, sz, sizeof(sz)),
				colours[d % N_COLOURS], dash[p][0] ?
				" stroke-dasharray=\"" : "", dash[p],
				dash[p][0] ? "\"" : "");
			for (k = 0; k < ss->n_lat; k++) {
				double v = pct_of(&ss->lat[k].lat, p);
				unsigned int slot;

				if (!(v > 0))
					continue;
				for (slot = 0; slot < GEN_LAT_POINTS &&
				     fabs(shares[slot] - ss->lat[k].share) > 1e-6;
				     slot++)
					;
				if (slot == GEN_LAT_POINTS)
					continue;
				fprintf(f, "%.1f,%.1f ", LEFT + x_step *
					(slot + 0.5), base - (log10(v) - lo) /
					(hi - lo) * PLOT_H);
			}
			fprintf(f, "\"/>\n");
		}
	}
	legend(f, s, n, y0);
	for (p = 0; p < 3; p++) {
		int y = y0 + 20 * (int)n + 20 + 18 * (int)p;

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"black\" stroke-width=\"2\"%s%s%s/><text "
			"x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n",
			W - RIGHT + 20, y, W - RIGHT + 50, y, dash[p][0] ?
			" stroke-dasharray=\"" : "", dash[p],
			dash[p][0] ? "\"" : "", W - RIGHT + 56, y + 4,
			pname[p]);
	}
	if (n > 0 && latency_size(&s[0]) != NULL)
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">frames "
			"of %s B</text>\n", W - RIGHT + 20,
			y0 + 20 * (int)n + 84,
			gen_size_text(latency_size(&s[0])->size, sz, sizeof(sz)));
	fprintf(f, "</g>\n");
}

void
gen_svg_print(FILE *f, const struct gen_summary *s, unsigned int n)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" "
		"font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" "
		"fill=\"white\"/>\n", W, 2 * PANEL_H, W, 2 * PANEL_H);
	throughput_panel(f, s, n);
	latency_panel(f, s, n);
	fprintf(f, "</svg>\n");
}

int
gen_svg_write(const char *path, const struct gen_summary *s, unsigned int n)
{
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (f == NULL) {
		rc = -errno;
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return rc;
	}
	gen_svg_print(f, s, n);
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		fprintf(stderr, "%s: %s\n", path, strerror(-rc));
	return rc;
}
