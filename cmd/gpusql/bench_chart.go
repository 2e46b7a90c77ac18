package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// chartSeries is one set of bars: a time in ms per query name.
type chartSeries struct {
	name string
	ms   map[string]float64
}

// benchSeries are the bars of a report: each executor's warm median and,
// for the GPU, its cold run (columns copied to the device first).
func benchSeries(r *benchReport, prefix string) []chartSeries {
	var out []chartSeries
	for _, e := range r.Executors {
		warm := chartSeries{name: prefix + strings.ToUpper(e) + " warm", ms: map[string]float64{}}
		cold := chartSeries{name: prefix + strings.ToUpper(e) + " cold", ms: map[string]float64{}}
		for _, q := range r.Queries {
			if t := q.Executors[e]; t != nil {
				warm.ms[q.Name], cold.ms[q.Name] = t.WarmMs, t.ColdMs
			}
		}
		out = append(out, warm)
		if e == "gpu" {
			out = append(out, cold)
		}
	}
	return out
}

// readCompare reads --compare: a gpusql bench --json report (its series
// are named after the file), or {"series": {"Q1.1": ms, ...}, ...} with
// figures taken elsewhere.
func readCompare(path string) ([]chartSeries, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rep benchReport
	if json.Unmarshal(b, &rep) == nil && len(rep.Queries) > 0 {
		stem := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
		return benchSeries(&rep, stem+" "), nil
	}
	var anchors map[string]map[string]float64
	if err := json.Unmarshal(b, &anchors); err != nil {
		return nil, fmt.Errorf("%s: neither a bench --json report nor {\"series\": {\"Q1.1\": ms}}: %w", path, err)
	}
	var out []chartSeries
	for name, ms := range anchors {
		out = append(out, chartSeries{name: name, ms: ms})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

// writeChart draws grouped bars, one group per query and one bar per
// series, and saves them to path (SVG, PNG or PDF by the extension).
func writeChart(path, title string, queries []string, series []chartSeries) error {
	return writeBarChart(path, title, "time (ms)", queries, series)
}

// writeBarChart draws grouped bars of any quantity (yLabel): one group per
// name in queries, one bar per series (chartSeries.ms holds the values).
func writeBarChart(path, title, yLabel string, queries []string, series []chartSeries) error {
	p := plot.New()
	p.Title.Text = title
	p.Y.Label.Text = yLabel
	top := 0.0
	for _, s := range series {
		for _, q := range queries {
			top = max(top, s.ms[q])
		}
	}
	// Headroom above the tallest bar keeps the legend clear of it.
	p.Y.Min, p.Y.Max = 0, max(top*1.3, 1)
	width := vg.Points(min(60/float64(max(len(series), 1)), 14))
	for i, s := range series {
		vals := make(plotter.Values, len(queries))
		for j, q := range queries {
			vals[j] = s.ms[q]
		}
		bars, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(i)
		bars.Offset = width * vg.Length(float64(i)-float64(len(series)-1)/2)
		p.Add(bars)
		p.Legend.Add(s.name, bars)
	}
	p.Legend.Top = true
	p.NominalX(queries...)
	w := vg.Length(max(6, float64(len(queries))*0.9)) * vg.Inch
	return p.Save(w, 4*vg.Inch, path)
}

// benchChart writes --chart for a report and the --compare files.
func benchChart(path string, r *benchReport, compare []string) error {
	series := benchSeries(r, "")
	for _, c := range compare {
		s, err := readCompare(c)
		if err != nil {
			return err
		}
		series = append(series, s...)
	}
	var queries []string
	for _, q := range r.Queries {
		queries = append(queries, q.Name)
	}
	title := "SSB query times"
	if r.SF > 0 {
		title = fmt.Sprintf("SSB SF %g query times (warm: median of %d runs)", r.SF, r.Runs)
	}
	return writeChart(path, title, queries, series)
}
