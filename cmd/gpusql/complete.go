package main

import (
	"sort"
	"strings"
	"unicode"

	"gpusql/engine"
)

// completer is the REPL's tab completion (a readline.AutoCompleter): the
// word before the cursor is completed from SQL keywords, function names,
// table and view names, the columns of every table, and, at the start of
// a line, the REPL's commands. Keywords follow the case the user typed.
type completer struct{ db *engine.DB }

var sqlKeywords = strings.Fields(`SELECT FROM WHERE GROUP BY ORDER HAVING LIMIT OFFSET JOIN LEFT RIGHT
INNER OUTER CROSS FULL ON USING AS AND OR NOT IN IS NULL LIKE BETWEEN EXISTS CASE WHEN THEN ELSE END
DISTINCT UNION ALL EXCEPT INTERSECT WITH INSERT INTO VALUES UPDATE SET DELETE REPLACE CREATE TABLE
VIEW INDEX DROP IF PRIMARY KEY UNIQUE DESCRIBE SHOW TABLES EXPLAIN ANALYZE LOAD DATA INFILE FIELDS
TERMINATED ENCLOSED IGNORE LINES IMPORT FORMAT COPY TO HEADER DELIMITER OUTFILE BEGIN COMMIT ROLLBACK
ASC DESC OVER PARTITION ROWS RANGE INTERVAL CAST INT INTEGER BIGINT DOUBLE DECIMAL VARCHAR CHAR DATE
BOOLEAN TRUE FALSE DEFAULT`)

var sqlFunctions = strings.Fields(`abs adddate any_value avg ceil ceiling char_length coalesce concat
count cume_dist date date_add date_sub datediff day dayofmonth dense_rank extract first_value floor if
ifnull lag last_value lcase lead length lower ltrim max mid min mod month nth_value ntile nullif
octet_length percent_rank rank replace round row_number rtrim subdate substr substring sum trim ucase
upper year read_csv read_parquet`)

var replCommands = strings.Fields(`\d \timing \help \q \i .tables .schema .mode .output .once .timer
.read .help .quit table csv json markdown line`)

func isWordRune(r rune) bool {
	return r == '_' || r == '.' || r == '\\' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Do returns the completions of the word ending at pos, as suffixes to
// insert, and the length of that word.
func (c *completer) Do(line []rune, pos int) ([][]rune, int) {
	start := pos
	for start > 0 && isWordRune(line[start-1]) {
		start--
	}
	word := string(line[start:pos])
	if i := strings.LastIndexByte(word, '.'); i > 0 {
		word = word[i+1:] // t.col: complete the column
	}
	if word == "" {
		return nil, 0
	}
	var out [][]rune
	for _, cand := range c.candidates(strings.TrimSpace(string(line[:start])) == "") {
		if len(cand) > len(word) && strings.EqualFold(cand[:len(word)], word) {
			if isUpperWord(word) && isKeyword(cand) {
				cand = strings.ToUpper(cand)
			}
			out = append(out, []rune(cand[len(word):]))
		}
	}
	return out, len([]rune(word))
}

func (c *completer) candidates(lineStart bool) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	cat := c.db.Catalog()
	names := append(cat.Names(), cat.ViewNames()...)
	sort.Strings(names)
	for _, n := range names {
		add(n)
	}
	for _, n := range names {
		if t, ok := cat.Table(n); ok {
			for _, f := range t.Fields {
				add(f.Name)
			}
		}
	}
	for _, f := range sqlFunctions {
		add(f + "(")
	}
	for _, k := range sqlKeywords {
		add(strings.ToLower(k))
	}
	if lineStart {
		for _, k := range replCommands {
			add(k)
		}
	}
	return out
}

func isUpperWord(s string) bool { return strings.ToUpper(s) == s && strings.ToLower(s) != s }

var keywordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range sqlKeywords {
		m[strings.ToLower(k)] = true
	}
	return m
}()

func isKeyword(s string) bool { return keywordSet[s] }
