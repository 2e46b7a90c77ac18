package sql

import (
	"strings"
)

// Stored programs (CREATE TRIGGER / PROCEDURE / FUNCTION / EVENT) are not
// supported, but a script holding one must still run the statements around
// it: their BEGIN ... END bodies contain ';' that would otherwise end the
// statement early and leave the rest of the body to be misparsed. Before
// parsing, each such statement is found — up to the ';' that follows its
// outermost END — and blanked out (newlines kept, so every other
// statement's offsets, lines and columns stay as written); binding it then
// fails with a clear error and the session goes on.

// routine is one stored-program statement cut out of a script.
type routine struct {
	kind       string // "CREATE TRIGGER", ...
	start, end int    // [start, end) in the script, the ';' included
	open       bool   // the text ended inside it
}

// routineKinds are the objects whose CREATE has a body.
var routineKinds = map[string]bool{"TRIGGER": true, "PROCEDURE": true, "FUNCTION": true, "EVENT": true}

// blankRoutines returns text with its stored-program statements replaced by
// blanks, and those statements.
func blankRoutines(text string) (string, []routine) {
	var out []routine
	sc := wordScanner{s: text}
	for {
		start, w := sc.next()
		if w == "" {
			break
		}
		if w == ";" {
			continue
		}
		kind, command := "", ""
		switch {
		case databaseCommand(w, &sc) != "":
			sc.pos = start + len(w)
			command = databaseCommand(w, &sc)
		case strings.EqualFold(w, "CREATE"):
			kind = routineKind(&sc)
		case strings.EqualFold(w, "DROP"):
			save := sc.pos
			if _, k := sc.next(); routineKinds[strings.ToUpper(k)] {
				kind = "DROP " + strings.ToUpper(k)
			} else {
				sc.pos = save
			}
		}
		end, open := sc.statementEnd(kind != "")
		if kind != "" {
			out = append(out, routine{kind: kind, start: start, end: end, open: open})
		}
		if command != "" {
			// Database statements (database.go) end at their ';' as any
			// other: never "open".
			out = append(out, routine{kind: command, start: start, end: end})
		}
	}
	if len(out) == 0 {
		return text, nil
	}
	b := []byte(text)
	for _, r := range out {
		for i := r.start; i < r.end; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b), out
}

// InStoredProgram reports whether text ends inside the body of a CREATE
// TRIGGER / PROCEDURE / FUNCTION / EVENT: a REPL reading it line by line
// must keep reading past the ';' of the body's inner statements.
func InStoredProgram(text string) bool {
	_, rs := blankRoutines(text)
	return len(rs) > 0 && rs[len(rs)-1].open
}

// routineKind reads past CREATE [OR REPLACE] [DEFINER = user] [AGGREGATE]
// and returns "CREATE <KIND>" when a stored program follows, else "".
func routineKind(sc *wordScanner) string {
	save := sc.pos
	for n := 0; n < 12; n++ {
		_, w := sc.next()
		u := strings.ToUpper(w)
		switch {
		case routineKinds[u]:
			return "CREATE " + u
		case u == "OR" || u == "REPLACE" || u == "DEFINER" || u == "=" || u == "AGGREGATE" ||
			u == "@" || strings.HasPrefix(w, "'") || strings.HasPrefix(w, "`") || strings.HasPrefix(w, "\"") ||
			u == "CURRENT_USER" || u == "(" || u == ")" || strings.HasPrefix(w, "@"):
			continue
		}
		break
	}
	sc.pos = save
	return ""
}

// wordScanner yields the words, quoted strings and punctuation of SQL text,
// skipping blanks and comments.
type wordScanner struct {
	s   string
	pos int
}

// next returns the next token and its offset; "" at the end.
func (sc *wordScanner) next() (int, string) {
	s := sc.s
	for sc.pos < len(s) {
		i := sc.pos + skipSpaceAndComments(s[sc.pos:])
		if i >= len(s) {
			sc.pos = len(s)
			return len(s), ""
		}
		c := s[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(s) {
				if s[j] == '\\' && c != '`' {
					j += 2
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			sc.pos = min(j+1, len(s))
			return i, s[i:sc.pos]
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			sc.pos = j
			return i, s[i:j]
		default:
			sc.pos = i + 1
			return i, s[i : i+1]
		}
	}
	return len(s), ""
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// statementEnd moves past the ';' that ends the current statement and
// returns the offset after it (open: the text ended first). In a stored program, BEGIN and CASE open a
// block that END closes (END IF, END LOOP, END WHILE and END REPEAT close
// constructs that are not counted), and ';' inside a block does not end
// the statement.
func (sc *wordScanner) statementEnd(routine bool) (int, bool) {
	depth := 0
	for {
		_, w := sc.next()
		switch u := strings.ToUpper(w); {
		case w == "":
			return len(sc.s), true
		case w == ";" && depth == 0:
			return sc.pos, false
		case !routine:
		case u == "BEGIN" || u == "CASE":
			depth++
		case u == "END":
			save := sc.pos
			_, nw := sc.next()
			switch strings.ToUpper(nw) {
			case "IF", "LOOP", "WHILE", "REPEAT":
				continue
			case "CASE":
			default:
				sc.pos = save
			}
			if depth > 0 {
				depth--
			}
		}
	}
}

// withRoutines merges the cut-out statements that start before limit into
// stmts (in script order) as Parsed values that bind to an error.
func withRoutines(stmts []Parsed, text string, routines []routine, limit int) []Parsed {
	if len(routines) == 0 {
		return stmts
	}
	out := make([]Parsed, 0, len(stmts)+len(routines))
	k := 0
	for _, r := range routines {
		if r.start >= limit {
			break
		}
		for k < len(stmts) && stmts[k].start < r.start {
			out = append(out, stmts[k])
			k++
		}
		body := strings.TrimRightFunc(strings.TrimSuffix(strings.TrimRightFunc(text[r.start:r.end], isSpace), ";"), isSpace)
		line, _ := lineCol(text, r.start)
		out = append(out, Parsed{Text: body, Line: line, src: text, start: r.start, routine: r.kind})
	}
	return append(out, stmts[k:]...)
}
