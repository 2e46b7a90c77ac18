package cpu

import (
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	"gpusql/sql"
)

// regexpBodies are the functions of sql/regexp.go. Positions are in
// characters, as MySQL counts them.
var regexpBodies = map[string]func(f *rowFunc, a []val) val{
	"regexp_like": func(f *rowFunc, a []val) val {
		return iv(int64(b2i(f.regexp(a, 2, true).MatchString(a[0].s))))
	},
	"regexp_replace": func(f *rowFunc, a []val) val {
		re := f.regexp(a, 5, false)
		head, tail := splitAt(a, 3)
		occ := optArg(a, 4, 0)
		if occ <= 0 {
			return sv(head + replaceAllICU(re, tail, a[2].s)) // regexp_matches.go
		}
		locs := icuMatches(re, tail, int(occ))
		if int64(len(locs)) < occ {
			return sv(head + tail)
		}
		loc := locs[occ-1]
		out := re.ExpandString([]byte(head+tail[:loc[0]]), a[2].s, tail, loc)
		return sv(string(out) + tail[loc[1]:])
	},
	"regexp_substr": func(f *rowFunc, a []val) val {
		_, tail := splitAt(a, 2)
		loc := nthMatch(f.regexp(a, 4, false), tail, optArg(a, 3, 1))
		if loc == nil {
			return nullVal
		}
		return sv(tail[loc[0]:loc[1]])
	},
	"regexp_instr": func(f *rowFunc, a []val) val {
		if ret := optArg(a, 4, 0); ret != 0 && ret != 1 {
			raise(errors.New(sql.RegexpReturnOptionError))
		}
		head, tail := splitAt(a, 2)
		loc := nthMatch(f.regexp(a, 5, false), tail, optArg(a, 3, 1))
		if loc == nil {
			return iv(0)
		}
		end := loc[0]
		if optArg(a, 4, 0) == 1 {
			end = loc[1]
		}

		return iv(int64(utf8.RuneCountInString(head+tail[:end])) + 1)
	},
}

func optArg(a []val, i int, def int64) int64 {
	if len(a) > i {
		return a[i].i
	}
	return def
}

// splitAt cuts a[0] before the 1-based character position argument a[i]
// (1 when absent); MySQL raises an error past the string's end.
func splitAt(a []val, i int) (head, tail string) {
	pos := optArg(a, i, 1)
	s := a[0].s
	if pos < 1 || pos > int64(utf8.RuneCountInString(s))+1 {
		raise(errors.New("Index out of bounds in regular expression search."))
	}
	r := []rune(s)
	head = string(r[:pos-1])
	return head, s[len(head):]
}

// nthMatch is the n-th (1-based) match's location in s, or nil.
func nthMatch(re *regexp.Regexp, s string, n int64) []int {
	if n < 1 {
		n = 1
	}
	locs := icuMatches(re, s, int(n)) // regexp_matches.go
	if int64(len(locs)) < n {
		return nil
	}
	return locs[n-1]
}

// regexp compiles a[1] under the match type a[mt] (when given), reusing
// the last compilation when the pattern repeats; endAnchors is
// sql.CompileRegexp's (a rowFunc is one function, so it never changes).
func (f *rowFunc) regexp(a []val, mt int, endAnchors bool) *regexp.Regexp {
	key := [2]string{a[1].s, ""}
	if len(a) > mt {
		key[1] = a[mt].s
	}
	if f.reUsed && key == f.reKey {
		return f.re
	}
	re, err := sql.CompileRegexp(key[0], key[1], endAnchors)
	if err == sql.ErrRegexpEndZ {
		raise(fmt.Errorf("%s(): %w", f.name, err)) // a pattern computed per row
	}
	if err != nil {
		raise(err)
	}
	f.re, f.reKey, f.reUsed = re, key, true
	return re
}
