package cpu

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gpusql/exec"
	"gpusql/internal/mysqljson"
	"gpusql/sql"
	"gpusql/storage/columnar"
)

// jsonBodies are the JSON functions of sql/json.go. Each parses its
// document arguments per row (a JSON column's text is already normalized,
// so only strings can fail) and prints a JSON result in MySQL's form.
var jsonBodies = map[string]func(f *rowFunc, a []val) val{
	"json_extract": jsonExtract,
	"json_unquote": func(f *rowFunc, a []val) val {
		s := a[0].s
		if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
			return sv(s)
		}
		return sv(mysqljson.Unquote(f.jsonDoc(a, 0)))
	},
	"json_quote": func(f *rowFunc, a []val) val { return sv(mysqljson.Quote(a[0].s)) },
	"json_object": func(f *rowFunc, a []val) val {
		o := &mysqljson.Object{}
		for i := 0; i < len(a); i += 2 {
			if a[i].null {
				raise(errors.New("JSON documents may not contain NULL member names."))
			}
			o.Set(a[i].s, f.jsonDoc(a, i+1))
		}
		return jsonVal(o)
	},
	"json_array": func(f *rowFunc, a []val) val {
		out := []mysqljson.Value{}
		for i := range a {
			out = append(out, f.jsonDoc(a, i))
		}
		return jsonVal(out)
	},
	"json_type":   func(f *rowFunc, a []val) val { return sv(mysqljson.TypeName(f.jsonDoc(a, 0))) },
	"json_valid":  func(f *rowFunc, a []val) val { return iv(int64(b2i(mysqljson.Valid(a[0].s)))) },
	"json_depth":  func(f *rowFunc, a []val) val { return iv(mysqljson.Depth(f.jsonDoc(a, 0))) },
	"json_pretty": func(f *rowFunc, a []val) val { return sv(mysqljson.Pretty(f.jsonDoc(a, 0))) },
	"json_length": func(f *rowFunc, a []val) val {
		v, ok := f.jsonAt(a, 1)
		if !ok {
			return nullVal
		}
		return iv(mysqljson.Length(v))
	},
	"json_keys": func(f *rowFunc, a []val) val {
		v, ok := f.jsonAt(a, 1)
		if !ok {
			return nullVal
		}
		if keys, ok := mysqljson.Keys(v); ok {
			return jsonVal(keys)
		}
		return nullVal
	},
	"json_contains": func(f *rowFunc, a []val) val {
		v, ok := f.jsonAt(a, 2)
		if !ok {
			return nullVal
		}
		return iv(int64(b2i(mysqljson.Contains(v, f.jsonDoc(a, 1)))))
	},
	"json_contains_path": func(f *rowFunc, a []val) val {
		doc, one := f.jsonDoc(a, 0), f.oneOrAll(a[1].s)
		for i := 2; i < len(a); i++ {
			found := len(f.jsonPath(a, i, true).Seek(doc)) > 0
			if found == one {
				return iv(int64(b2i(one)))
			}
		}
		return iv(int64(b2i(!one)))
	},
	"json_search": jsonSearch,
	"json_set":    func(f *rowFunc, a []val) val { return f.jsonSet(a, mysqljson.ModeSet) },
	"json_insert": func(f *rowFunc, a []val) val { return f.jsonSet(a, mysqljson.ModeInsert) },
	"json_replace": func(f *rowFunc, a []val) val {
		return f.jsonSet(a, mysqljson.ModeReplace)
	},
	"json_remove": func(f *rowFunc, a []val) val {
		doc := f.jsonDoc(a, 0)
		for i := 1; i < len(a); i++ {
			p := f.jsonPath(a, i, false)
			if p.IsRoot() {
				raise(errors.New("The path expression '$' is not allowed in this context."))
			}
			doc = mysqljson.Remove(doc, p)
		}
		return jsonVal(doc)
	},
	"json_array_append": func(f *rowFunc, a []val) val {
		doc := f.jsonDoc(a, 0)
		for i := 1; i < len(a); i += 2 {
			doc = mysqljson.ArrayAppend(doc, f.jsonPath(a, i, false), f.jsonDoc(a, i+1))
		}
		return jsonVal(doc)
	},
	"json_merge_patch": func(f *rowFunc, a []val) val {
		doc := f.jsonDoc(a, 0)
		for i := 1; i < len(a); i++ {
			doc = mysqljson.MergePatch(doc, f.jsonDoc(a, i))
		}
		return jsonVal(doc)
	},
	"json_merge_preserve": func(f *rowFunc, a []val) val {
		doc := f.jsonDoc(a, 0)
		for i := 1; i < len(a); i++ {
			doc = mysqljson.MergePreserve(doc, f.jsonDoc(a, i))
		}
		return jsonVal(doc)
	},
	"json_memberof": func(f *rowFunc, a []val) val {
		return iv(int64(b2i(mysqljson.MemberOf(f.jsonDoc(a, 0), f.jsonDoc(a, 1)))))
	},
	"json_overlaps": func(f *rowFunc, a []val) val {
		return iv(int64(b2i(mysqljson.Overlaps(f.jsonDoc(a, 0), f.jsonDoc(a, 1)))))
	},
	"cast_as_json": func(f *rowFunc, a []val) val {
		if t := f.types[0]; t.ID == columnar.String && !t.JSON {
			return jsonVal(f.jsonDoc(a, 0))
		}
		return sv(sqlToJSON(a[0], f.types[0]))
	},
	"json_value": func(f *rowFunc, a []val) val { return sv(sqlToJSON(a[0], f.types[0])) },
}

func jsonVal(v mysqljson.Value) val { return sv(mysqljson.Format(v)) }

// jsonDoc parses argument i, naming it in MySQL's words when it is not
// JSON text.
func (f *rowFunc) jsonDoc(a []val, i int) mysqljson.Value {
	v, err := mysqljson.Parse(a[i].s)
	if err != nil {
		raise(fmt.Errorf("Invalid JSON text in argument %d to function %s: %v.", i+1, f.name, err))
	}
	return v
}

// jsonPath parses argument i as a path; wild says whether *, ** and
// ranges are allowed there.
func (f *rowFunc) jsonPath(a []val, i int, wild bool) mysqljson.Path {
	p, err := mysqljson.ParsePath(a[i].s)
	if err != nil {
		raise(err)
	}
	if !wild && p.HasWildcard() {
		raise(errors.New("In this situation, path expressions may not contain the * and ** tokens or an array range."))
	}
	return p
}

// jsonAt is the document (argument 0) at the optional wildcard-free path
// argument i; ok is false when the path reaches nothing.
func (f *rowFunc) jsonAt(a []val, i int) (mysqljson.Value, bool) {
	doc := f.jsonDoc(a, 0)
	if len(a) <= i {
		return doc, true
	}
	m := f.jsonPath(a, i, false).Seek(doc)
	if len(m) == 0 {
		return nil, false
	}
	return m[0].Val, true
}

func (f *rowFunc) oneOrAll(s string) bool {
	switch strings.ToLower(s) {
	case "one":
		return true
	case "all":
		return false
	}
	raise(fmt.Errorf("The oneOrAll argument to %s may take these values: 'one' or 'all'.", f.name))
	return false
}

func jsonExtract(f *rowFunc, a []val) val {
	doc := f.jsonDoc(a, 0)
	var found []mysqljson.Value
	wrap := len(a) > 2
	for i := 1; i < len(a); i++ {
		p := f.jsonPath(a, i, true)
		wrap = wrap || p.HasWildcard()
		for _, m := range p.Seek(doc) {
			found = append(found, m.Val)
		}
	}
	switch {
	case len(found) == 0:
		return nullVal
	case !wrap:
		return jsonVal(found[0])
	}
	return jsonVal(found)
}

func (f *rowFunc) jsonSet(a []val, mode mysqljson.SetMode) val {
	doc := f.jsonDoc(a, 0)
	for i := 1; i < len(a); i += 2 {
		doc = mysqljson.Set(doc, f.jsonPath(a, i, false), f.jsonDoc(a, i+1), mode)
	}
	return jsonVal(doc)
}

// jsonSearch is JSON_SEARCH(doc, one|all, pattern[, escape[, path...]]):
// the paths of the strings that match the LIKE pattern.
func jsonSearch(f *rowFunc, a []val) val {
	for i := range a {
		if a[i].null && i != 3 {
			return nullVal
		}
	}
	doc, one := f.jsonDoc(a, 0), f.oneOrAll(a[1].s)
	pattern := a[2].s
	if len(a) > 3 && !a[3].null {
		pattern = likeWithEscape(pattern, a[3].s)
	}
	var matches []mysqljson.Match
	if len(a) <= 4 {
		matches = mysqljson.Path{}.Seek(doc)
	}
	for i := 4; i < len(a); i++ {
		matches = append(matches, f.jsonPath(a, i, true).Seek(doc)...)
	}
	paths := mysqljson.Search(matches, func(s string) bool { return sql.LikeMatch(s, pattern) }, one)
	switch len(paths) {
	case 0:
		return nullVal
	case 1:
		return sv(mysqljson.Quote(paths[0]))
	}
	out := make([]mysqljson.Value, len(paths))
	for i, p := range paths {
		out[i] = p
	}
	return jsonVal(out)
}

// likeWithEscape rewrites a LIKE pattern whose escape character is esc
// (” or '\' is the default) into one escaped by '\'.
func likeWithEscape(pattern, esc string) string {
	if esc == "" || esc == `\` {
		return pattern
	}
	e := []rune(esc)[0]
	var sb strings.Builder
	rs := []rune(pattern)
	for i := 0; i < len(rs); i++ {
		switch {
		case rs[i] == e && i+1 < len(rs):
			sb.WriteByte('\\')
			i++
			sb.WriteRune(rs[i])
		case rs[i] == '\\':
			sb.WriteString(`\\`)
		default:
			sb.WriteRune(rs[i])
		}
	}
	return sb.String()
}

// sqlToJSON is an SQL value as MySQL makes it a JSON value: strings
// quoted (JSON text kept), numbers of their kind, BOOLEAN true/false,
// DATE and DATETIME as their text, NULL null.
func sqlToJSON(v val, t columnar.Type) string {
	switch {
	case v.null:
		return "null"
	case t.JSON:
		return v.s
	}
	switch t.ID {
	case columnar.String:
		return mysqljson.Quote(v.s)
	case columnar.Bool:
		return strconv.FormatBool(v.i != 0)
	case columnar.Float64:
		return mysqljson.FormatDouble(v.f)
	case columnar.Decimal:
		return exec.FormatDecimal(v.i, t.Scale)
	case columnar.Date:
		return mysqljson.Quote(exec.FormatDate(int32(v.i)))
	case columnar.Datetime:
		return mysqljson.Quote(columnar.FormatDatetime(v.i, 6))
	}
	return strconv.FormatInt(v.i, 10)
}
