package qgen

import (
	"regexp"
	"testing"
)

// The generator makes GREATEST/LEAST of an integer and a digit string,
// which SQLite's side compares as text, and NULLIF of an integer and a
// string, which SQLite's side reads as REAL (mixed_greatest.go).
func TestMixedGreatestShapes(t *testing.T) {
	shapes := map[string]*regexp.Regexp{
		"GREATEST/LEAST as text": regexp.MustCompile(`(MAX|MIN)\((CAST\(.* AS TEXT\), '\d+'|'\d+', CAST\()`),
		"NULLIF as REAL":         regexp.MustCompile(`NULLIF\(.*, CAST\(.* AS REAL\)\)`),
	}
	seen := map[string]bool{}
	for seed := int64(1); seed <= 3000 && len(seen) < len(shapes); seed++ {
		lite := Generate(seed).SQLite()
		for name, re := range shapes {
			if re.MatchString(lite) {
				seen[name] = true
			}
		}
	}
	for name := range shapes {
		if !seen[name] {
			t.Errorf("no %s in 3000 queries", name)
		}
	}
}
