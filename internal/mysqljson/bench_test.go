package mysqljson

import (
	"fmt"
	"strings"
	"testing"
)

// benchDoc is a typical semi-structured row: a dozen members, a nested
// object and a short array (about 300 bytes).
func benchDoc(i int) string {
	return fmt.Sprintf(`{"id": %d, "name": "customer %d", "email": "c%d@example.com", "active": true, "score": %d.25, `+
		`"tags": ["a", "b", "vip"], "addr": {"city": "Oslo", "zip": "0150", "street": "Main %d"}, "orders": %d, `+
		`"note": "line one\nline two", "ratio": 0.125, "parent": null, "level": "gold"}`, i, i, i, i%100, i, i%17)
}

// BenchmarkNormalize is the check and rewrite every stored JSON value
// passes (once per distinct value on a load); MB/s is of input text.
func BenchmarkNormalize(b *testing.B) {
	docs := make([]string, 1024)
	n := 0
	for i := range docs {
		docs[i] = benchDoc(i)
		n += len(docs[i])
	}
	b.SetBytes(int64(n / len(docs)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Normalize(docs[i%len(docs)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkExtract is j->>'$.addr.city' per row as exec/cpu computes it:
// parse the stored text, seek the path, print the result.
func BenchmarkExtract(b *testing.B) {
	docs := make([]string, 1024)
	n := 0
	for i := range docs {
		docs[i], _ = Normalize(benchDoc(i))
		n += len(docs[i])
	}
	p, _ := ParsePath("$.addr.city")
	b.SetBytes(int64(n / len(docs)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := Parse(docs[i%len(docs)])
		if err != nil {
			b.Fatal(err)
		}
		if m := p.Seek(v); len(m) != 1 || !strings.HasPrefix(Unquote(m[0].Val), "Oslo") {
			b.Fatal("no match")
		}
	}
}
