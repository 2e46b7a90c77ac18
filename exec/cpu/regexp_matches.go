package cpu

import (
	"regexp"
	"regexp/syntax"
)

// MySQL's REGEXP_REPLACE, REGEXP_INSTR and REGEXP_SUBSTR walk the matches
// as ICU's uregex_findNext does: after a match, the next search starts
// where it ended, and only an empty match moves the start one character
// on. So an empty match right after a non-empty one counts, where Go's
// FindAll skips it:
//
//	REGEXP_REPLACE('aaa', 'a*', 'X')   MySQL XX      Go's ReplaceAll X
//	REGEXP_REPLACE('abc', 'b*', 'X')   MySQL XaXXcX  Go's ReplaceAll XaXcX
//
// Both engines take the leftmost-first match from a position, so the two
// lists differ only by those empty matches, which icuMatches adds back.

// icuMatches is the submatch locations of the first n matches of re in s
// (every match when n < 0), in ICU's order.
func icuMatches(re *regexp.Regexp, s string, n int) [][]int {
	locs := re.FindAllStringSubmatchIndex(s, -1)
	if !contextFreeStart(re) {
		return firstN(locs, n) // ^ or \b at e would read the cut string wrongly: Go's list
	}
	var out [][]int
	for i, loc := range locs {
		out = append(out, loc)
		e := loc[1]
		if loc[0] == e || i+1 < len(locs) && locs[i+1][0] == e {
			continue
		}
		// Go looked at e and dropped an empty match there, if the
		// leftmost-first match from e is one.
		if m := re.FindStringSubmatchIndex(s[e:]); m != nil && m[0] == 0 && m[1] == 0 {
			for j := range m {
				if m[j] >= 0 {
					m[j] += e
				}
			}
			out = append(out, m)
		}
	}
	return firstN(out, n)
}

func firstN(locs [][]int, n int) [][]int {
	if n >= 0 && len(locs) > n {
		return locs[:n]
	}
	return locs
}

// contextFreeStart reports a pattern whose match from a position does
// not depend on the text before it (no ^, \A, \b or \B), so that a search
// of s[e:] finds what a search of s from e would.
func contextFreeStart(re *regexp.Regexp) bool {
	t, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return false
	}
	free := true
	var walk func(*syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
			free = false
		}
		for _, s := range r.Sub {
			walk(s)
		}
	}
	walk(t)
	return free
}

// replaceAllICU is re.ReplaceAllString(s, repl) over icuMatches.
func replaceAllICU(re *regexp.Regexp, s, repl string) string {
	var out []byte
	last := 0
	for _, loc := range icuMatches(re, s, -1) {
		out = append(out, s[last:loc[0]]...)
		out = re.ExpandString(out, repl, s, loc)
		last = loc[1]
	}
	return string(append(out, s[last:]...))
}
