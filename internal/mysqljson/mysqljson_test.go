package mysqljson

import (
	"strings"
	"testing"
)

// Expected answers are the examples of the MySQL 8.0 reference manual
// (sections 11.5 "The JSON Data Type" and 14.17 "JSON Functions").

func mustParse(t *testing.T, s string) Value {
	t.Helper()
	v, err := Parse(s)
	if err != nil {
		t.Fatalf("parse %s: %v", s, err)
	}
	return v
}

func mustPath(t *testing.T, s string) Path {
	t.Helper()
	p, err := ParsePath(s)
	if err != nil {
		t.Fatalf("path %s: %v", s, err)
	}
	return p
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		`{"b": 1, "a": 2, "aa": 3}`:           `{"a": 2, "b": 1, "aa": 3}`,
		`{"x": 17, "x": "red"}`:               `{"x": "red"}`,
		` [1,2 , {"c":[] ,"d":{}}]`:           `[1, 2, {"c": [], "d": {}}]`,
		`"a\u00e9\"\\\/\n"`:                   `"aé\"\\/\n"`,
		`[3.0, 1e2, 1.5e-7, 1e20, -0.25, 10]`: `[3.0, 100.0, 1.5e-7, 1e20, -0.25, 10]`,
		`18446744073709551615`:                `18446744073709551615`,
		`-9223372036854775808`:                `-9223372036854775808`,
		`[true,false,null]`:                   `[true, false, null]`,
		`"\ud83d\ude00"`:                      `"😀"`,
	} {
		got, err := Normalize(in)
		if err != nil || got != want {
			t.Errorf("Normalize(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		``:            `"The document is empty." at position 0`,
		`{"a":}`:      `"Invalid value." at position 5`,
		`[1,2`:        `"Missing a comma or ']' after an array element." at position 4`,
		`{"a" 1}`:     `"Missing a colon after a name of object member." at position 5`,
		`{"a": 1 "b"`: `"Missing a comma or '}' after an object member." at position 8`,
		`{1: 2}`:      `"Missing a name for object member." at position 1`,
		`[1] 2`:       `"The document root must not be followed by other values." at position 4`,
		`"abc`:        `"Missing a closing quotation mark in string." at position 4`,
		`"\x"`:        `"Invalid escape character in string." at position 2`,
		`abc`:         `"Invalid value." at position 0`,
		`1.`:          `"Miss fraction part in number." at position 2`,
		strings.Repeat("[", 101) + strings.Repeat("]", 101): `"The JSON document exceeds the maximum depth of 100." at position 100`,
	} {
		_, err := Parse(in)
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) error %v; want %s", in, err, want)
		}
	}
}

func TestTypesAndNumbers(t *testing.T) {
	for in, want := range map[string]string{`1`: "INTEGER", `18446744073709551615`: "UNSIGNED INTEGER",
		`1.0`: "DOUBLE", `1e400`: "", `"x"`: "STRING", `[]`: "ARRAY", `{}`: "OBJECT", `null`: "NULL", `true`: "BOOLEAN"} {
		v, err := Parse(in)
		if want == "" {
			if err == nil {
				t.Errorf("%s: want an error", in)
			}
			continue
		}
		if err != nil || TypeName(v) != want {
			t.Errorf("TypeName(%s) = %s, %v; want %s", in, TypeName(v), err, want)
		}
	}
	if !Equal(int64(1), 1.0) || Equal(int64(1), "1") || Equal(int64(-1), uint64(18446744073709551615)) {
		t.Error("numeric equality across kinds")
	}
	for in, want := range map[string]int64{`{}`: 1, `[10, 20]`: 2, `[10, {"a": 20}]`: 3, `1`: 1} {
		if got := Depth(mustParse(t, in)); got != want {
			t.Errorf("Depth(%s) = %d, want %d", in, got, want)
		}
	}
}

func TestSeek(t *testing.T) {
	cases := []struct{ doc, path, want string }{
		{`[10, 20, [30, 40]]`, `$[1]`, `20`},
		{`[10, 20, [30, 40]]`, `$[2][*]`, `30 40`},
		{`{"a": 1, "b": 2, "c": [3, 4, 5]}`, `$.*`, `1 2 [3, 4, 5]`},
		{`{"a": 1, "b": 2, "c": [3, 4, 5]}`, `$.c[*]`, `3 4 5`},
		{`{"a": {"b": 1}, "c": {"b": 2}}`, `$**.b`, `1 2`},
		{`[1, 2, 3, 4, 5]`, `$[1 to 3]`, `2 3 4`},
		{`[1, 2, 3, 4, 5]`, `$[last-3 to last-1]`, `2 3 4`},
		{`[1, 2, 3]`, `$[last]`, `3`},
		{`{"a": 1}`, `$[0]`, `{"a": 1}`},
		{`{"a": 1}`, `$[1]`, ``},
		{`{"a b": {"c": 5}}`, `$."a b".c`, `5`},
		{`[1]`, `$[5]`, ``},
	}
	for _, c := range cases {
		var got []string
		for _, m := range mustPath(t, c.path).Seek(mustParse(t, c.doc)) {
			got = append(got, Format(m.Val))
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("seek %s in %s = %q, want %q", c.path, c.doc, strings.Join(got, " "), c.want)
		}
	}
	for _, bad := range []string{`a`, `$.`, `$[`, `$**`, `$[1 to]`, `$.a.`} {
		if _, err := ParsePath(bad); err == nil {
			t.Errorf("path %q: want an error", bad)
		}
	}
}

func TestModify(t *testing.T) {
	doc := `{ "a": 1, "b": [2, 3]}`
	set := func(mode SetMode) string {
		d := mustParse(t, doc)
		d = Set(d, mustPath(t, "$.a"), int64(10), mode)
		d = Set(d, mustPath(t, "$.c"), "[true, false]", mode)
		return Format(d)
	}
	for mode, want := range map[SetMode]string{
		ModeSet:     `{"a": 10, "b": [2, 3], "c": "[true, false]"}`,
		ModeInsert:  `{"a": 1, "b": [2, 3], "c": "[true, false]"}`,
		ModeReplace: `{"a": 10, "b": [2, 3]}`,
	} {
		if got := set(mode); got != want {
			t.Errorf("mode %d: %s, want %s", mode, got, want)
		}
	}
	arr := `["a", ["b", "c"], "d"]`
	for _, c := range []struct{ doc, path, want string }{
		{arr, `$[1]`, `["a", ["b", "c", 1], "d"]`},
		{arr, `$[0]`, `[["a", 1], ["b", "c"], "d"]`},
		{arr, `$[1][0]`, `["a", [["b", 1], "c"], "d"]`},
		{`{"a": 1, "b": [2, 3], "c": 4}`, `$.c`, `{"a": 1, "b": [2, 3], "c": [4, 1]}`},
		{`{"a": 1}`, `$`, `[{"a": 1}, 1]`},
	} {
		if got := Format(ArrayAppend(mustParse(t, c.doc), mustPath(t, c.path), int64(1))); got != c.want {
			t.Errorf("append %s %s = %s, want %s", c.doc, c.path, got, c.want)
		}
	}
	ins := `["a", {"b": [1, 2]}, [3, 4]]`
	for _, c := range []struct{ path, want string }{
		{`$[1]`, `["a", "x", {"b": [1, 2]}, [3, 4]]`},
		{`$[100]`, `["a", {"b": [1, 2]}, [3, 4], "x"]`},
		{`$[1].b[0]`, `["a", {"b": ["x", 1, 2]}, [3, 4]]`},
		{`$[2][1]`, `["a", {"b": [1, 2]}, [3, "x", 4]]`},
		{`$[1][0]`, ins},
	} {
		got, ok := ArrayInsert(mustParse(t, ins), mustPath(t, c.path), "x")
		if !ok || Format(got) != c.want {
			t.Errorf("array insert %s = %s, want %s", c.path, Format(got), c.want)
		}
	}
	if _, ok := ArrayInsert(mustParse(t, ins), mustPath(t, "$.a"), "x"); ok {
		t.Error("array insert at a member path")
	}
	if got := Format(Remove(mustParse(t, arr), mustPath(t, "$[1]"))); got != `["a", "d"]` {
		t.Errorf("remove: %s", got)
	}
	if got := Format(Set(mustParse(t, `[1, 2]`), mustPath(t, "$[5]"), int64(9), ModeSet)); got != `[1, 2, 9]` {
		t.Errorf("set past the end: %s", got)
	}
	if got := Format(Set(mustParse(t, `"x"`), mustPath(t, "$[1]"), int64(9), ModeInsert)); got != `["x", 9]` {
		t.Errorf("insert wraps a scalar: %s", got)
	}
}

func TestMerge(t *testing.T) {
	for _, c := range []struct{ a, b, patch, preserve string }{
		{`[1, 2]`, `[true, false]`, `[true, false]`, `[1, 2, true, false]`},
		{`{"name": "x"}`, `{"id": 47}`, `{"id": 47, "name": "x"}`, `{"id": 47, "name": "x"}`},
		{`1`, `true`, `true`, `[1, true]`},
		{`[1, 2]`, `{"id": 47}`, `{"id": 47}`, `[1, 2, {"id": 47}]`},
		{`{ "a": 1, "b":2 }`, `{ "a": 3, "c":4 }`, `{"a": 3, "b": 2, "c": 4}`, `{"a": [1, 3], "b": 2, "c": 4}`},
		{`{"a":1, "b":2}`, `{"b":null}`, `{"a": 1}`, `{"a": 1, "b": [2, null]}`},
		{`{"a":{"x":1}}`, `{"a":{"y":2}}`, `{"a": {"x": 1, "y": 2}}`, `{"a": {"x": 1, "y": 2}}`},
	} {
		if got := Format(MergePatch(mustParse(t, c.a), mustParse(t, c.b))); got != c.patch {
			t.Errorf("patch %s %s = %s, want %s", c.a, c.b, got, c.patch)
		}
		if got := Format(MergePreserve(mustParse(t, c.a), mustParse(t, c.b))); got != c.preserve {
			t.Errorf("preserve %s %s = %s, want %s", c.a, c.b, got, c.preserve)
		}
	}
}

func TestContainsOverlapsSearch(t *testing.T) {
	doc := mustParse(t, `{"a": 1, "b": 2, "c": {"d": 4}}`)
	get := func(p string) Value { return mustPath(t, p).Seek(doc)[0].Val }
	if !Contains(get("$.a"), int64(1)) || Contains(get("$.a"), mustParse(t, `{"d": 4}`)) || !Contains(get("$.c"), mustParse(t, `{"d": 4}`)) {
		t.Error("JSON_CONTAINS manual examples")
	}
	if !Contains(mustParse(t, `[1, [2, 3]]`), mustParse(t, `[3, 1]`)) || Contains(mustParse(t, `[1, 2]`), mustParse(t, `[1, 5]`)) {
		t.Error("array containment")
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{{`[1,3,5,7]`, `[2,5,7]`, true}, {`[1,3,5,7]`, `[2,6,8]`, false},
		{`{"a":1,"b":10,"d":10}`, `{"c":1,"e":10,"f":1,"d":10}`, true}, {`5`, `5`, true}, {`[4,5,"6",7]`, `6`, false}} {
		if Overlaps(mustParse(t, c.a), mustParse(t, c.b)) != c.want {
			t.Errorf("overlaps %s %s", c.a, c.b)
		}
	}
	sdoc := mustParse(t, `["abc", [{"k": "10"}, "def"], {"x":"abc"}, {"y":"bcd"}]`)
	root := mustPath(t, "$").Seek(sdoc)
	eq := func(s string) func(string) bool { return func(x string) bool { return x == s } }
	if got := Search(root, eq("abc"), true); strings.Join(got, " ") != "$[0]" {
		t.Errorf("search one: %v", got)
	}
	if got := Search(root, eq("abc"), false); strings.Join(got, " ") != "$[0] $[2].x" {
		t.Errorf("search all: %v", got)
	}
	if got := Search(root, eq("10"), false); strings.Join(got, " ") != "$[1][0].k" {
		t.Errorf("search 10: %v", got)
	}
	if got := Search(mustPath(t, "$[3]").Seek(sdoc), eq("bcd"), false); strings.Join(got, " ") != "$[3].y" {
		t.Errorf("search under a path: %v", got)
	}
}

func TestPretty(t *testing.T) {
	if got := Pretty(mustParse(t, `[1,3,5]`)); got != "[\n  1,\n  3,\n  5\n]" {
		t.Errorf("pretty array: %q", got)
	}
	want := "{\n  \"a\": \"10\",\n  \"b\": [\n    1\n  ],\n  \"x\": {}\n}"
	if got := Pretty(mustParse(t, `{"a":"10","b":[1],"x":{}}`)); got != want {
		t.Errorf("pretty object: %q", got)
	}
}

// FuzzNormalize: whatever Parse accepts prints as text that parses back
// to an equal value and prints the same (normalizing is idempotent), and
// never panics on any input.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{`{"b": 1, "a": [1, 2.5, "x"]}`, `[]`, `"\u00e9\n"`, `18446744073709551616`, `-0`, `[1e308, -1e-320]`, `{"a":{"a":{}}}`, `nul`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err != nil {
			return
		}
		text := Format(v)
		w, err := Parse(text)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, text, err)
		}
		if !Equal(v, w) || Format(w) != text {
			t.Fatalf("%q: %q reparsed as %q", s, text, Format(w))
		}
	})
}

// FuzzPath: any path text either parses or is an error, and a parsed path
// seeks, sets and removes in a document without panicking.
func FuzzPath(f *testing.F) {
	for _, s := range []string{`$`, `$.a[1]`, `$**.b`, `$[last-1 to last]`, `$."x y".*`, `$[*][0]`, `$[2 to 1]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			return
		}
		doc, _ := Parse(`{"a": [1, {"b": 2}], "b": {"b": [3]}, "x y": 4}`)
		p.Seek(doc)
		if !p.HasWildcard() && !p.IsRoot() {
			doc = Set(doc, p, int64(5), ModeSet)
			doc = ArrayAppend(doc, p, int64(6))
			Remove(doc, p)
		}
	})
}

// TestCompare: MySQL's JSON ordering, one pair per rule, and the order of
// a list covering every type.
func TestCompare(t *testing.T) {
	ordered := []string{`null`, `-5`, `1`, `1.5`, `9223372036854775807`, `18446744073709551615`, `""`, `"a"`, `"ab"`, `"b"`,
		`{}`, `{"a": 1}`, `[]`, `[1]`, `[1, 2]`, `[2]`, `false`, `true`}
	for i := range ordered {
		for j := range ordered {
			got := Compare(mustParse(t, ordered[i]), mustParse(t, ordered[j]))
			if want := cmp3(i, j); got != want {
				t.Errorf("Compare(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	for i := range ordered {
		for j := range ordered {
			a, b := SortKey(mustParse(t, ordered[i])), SortKey(mustParse(t, ordered[j]))
			if got, want := strings.Compare(a, b), cmp3(i, j); got != want {
				t.Errorf("SortKey order of %s, %s = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	if Compare(int64(1), 1.0) != 0 || Compare(mustParse(t, `{"a": 1, "b": [1]}`), mustParse(t, `{"b": [1.0], "a": 1}`)) != 0 {
		t.Error("equal values of different spelling compare unequal")
	}
}

// FuzzSortKey: the keys of two documents order as Compare orders them.
func FuzzSortKey(f *testing.F) {
	f.Add(`[1, "a\u0000b", {"k": [true]}]`, `[1, "a", {"k": [false, null]}]`)
	f.Add(`{"a": -0.0}`, `{"a": 0}`)
	f.Fuzz(func(t *testing.T, x, y string) {
		a, err1 := Parse(x)
		b, err2 := Parse(y)
		if err1 != nil || err2 != nil {
			return
		}
		if got, want := strings.Compare(SortKey(a), SortKey(b)), Compare(a, b); got != want {
			t.Fatalf("%s vs %s: keys order %d, Compare %d", x, y, got, want)
		}
	})
}

// The examples of JSON_STORAGE_SIZE in the MySQL 8.0 manual ("JSON
// Utility Functions") and the format's edges worked by hand: a literal is
// a type byte and one byte, a 16-bit integer two, a string its length
// byte and bytes, an array of 20000 strings of 3 bytes (80000 bytes in
// the small format) takes the large one.
func TestStorageSize(t *testing.T) {
	big := "["
	for i := 0; i < 20000; i++ {
		if i > 0 {
			big += ","
		}
		big += `"abc"`
	}
	big += "]"
	for _, c := range []struct {
		doc  string
		want int64
	}{
		{`[100, "sakila", [1, 3, 5], 425.05]`, 45},
		{`{"a": 1000, "b": "a", "c": "[1, 3, 5, 7]"}`, 44},
		{`{"a": 1000, "b": "wxyz", "c": "[1, 3, 5, 7]"}`, 47},
		{`[100, "json", [[10, 20, 30], 3, 5], 425.05]`, 56},
		{`true`, 2}, {`1`, 3}, {`70000`, 5}, {`"a"`, 3}, {`[]`, 5}, {`{}`, 5},
		{`[70000]`, 12}, // 4 + 3 + 4 (int32, not inlined in the small format) + 1
		{big, 1 + 8 + 20000*5 + 20000*4},
	} {
		v, err := Parse(c.doc)
		if err != nil {
			t.Fatal(err)
		}
		if got := StorageSize(v); got != c.want {
			t.Errorf("StorageSize(%.40s) = %d, want %d", c.doc, got, c.want)
		}
	}
}
