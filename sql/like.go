package sql

// LikeMatch reports whether s matches the SQL LIKE pattern: '%' matches any
// run of characters, '_' exactly one, and '\' makes the next character
// literal. Comparison is by character (rune), case-sensitive (binary
// collation, as TiDB's default). Exported so the executors match strings
// exactly as the binder compiles LIKE on dictionaries.
func LikeMatch(s, pattern string) bool {
	return likeRunes([]rune(s), []rune(pattern))
}

func likeRunes(s, p []rune) bool {
	// Iterative matcher with backtracking to the last '%': linear in
	// practice, worst case O(len(s)*len(p)).
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; {
			case c == '%':
				star, mark = pi, si
				pi++
				continue
			case c == '_':
				si++
				pi++
				continue
			case c == '\\' && pi+1 < len(p):
				if s[si] == p[pi+1] {
					si++
					pi += 2
					continue
				}
			case c == s[si]:
				si++
				pi++
				continue
			}
		}
		if star < 0 {
			return false
		}
		mark++
		si, pi = mark, star+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}
