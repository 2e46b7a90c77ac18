package slt

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Classic sqllogictest files write a result of more values than the file's
// hash-threshold as "V values hashing to H": H is the hex MD5 of every
// rendered value, in the record's sort order, each followed by "\n" (what
// sqllogictest.c computes), so a file can pin down a large result in a line.

// HashValues is the MD5 sqllogictest computes over rendered values.
func HashValues(vals []string) string {
	h := md5.New()
	for _, v := range vals {
		h.Write([]byte(v))
		h.Write([]byte("\n"))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// expectedHash reads a record's "V values hashing to H" block.
func expectedHash(r *Record) (n int, hash string, ok bool) {
	if len(r.Expected) != 1 {
		return 0, "", false
	}
	f := strings.Fields(r.Expected[0])
	if len(f) != 5 || f[1] != "values" || f[2] != "hashing" || f[3] != "to" {
		return 0, "", false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return 0, "", false
	}
	return n, f[4], true
}

// values flattens formatted lines (rows joined by tabs, from Format) back
// into the values sqllogictest hashes; rendered values hold no tabs.
func values(r *Record, lines []string) []string {
	if r.Sort == "valuesort" || len(r.Types) <= 1 {
		return lines
	}
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(l, "\t")...)
	}
	return out
}

// preview prints the first values of a result for a failure message.
func preview(vals []string) string {
	const max = 12
	if len(vals) <= max {
		return fmt.Sprintf("%q", vals)
	}
	return fmt.Sprintf("%q ... (%d more)", vals[:max], len(vals)-max)
}
