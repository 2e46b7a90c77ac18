package sql

import (
	"fmt"
	"strconv"

	"gpusql/internal/mysqljson"
	"gpusql/storage/columnar"
)

// jtLayout numbers the result columns in declaration order, a NESTED
// list's columns where the NESTED clause stands; it returns the count.
func jtLayout(cols []jtColumn, next int) int {
	for i := range cols {
		c := &cols[i]
		c.first = next
		if c.isNested {
			next = jtLayout(c.nested, next)
		} else {
			next++
		}
		c.width = next - c.first
	}
	return next
}

// jtFlat is the non-nested columns of cols, nested ones included, in
// result order.
func jtFlat(cols []jtColumn) []jtColumn {
	var out []jtColumn
	for _, c := range cols {
		if c.isNested {
			out = append(out, jtFlat(c.nested)...)
		} else {
			out = append(out, c)
		}
	}
	return out
}

// jtEval builds the rows of a JSON_TABLE: each a slice of the columns'
// values as text, nil for NULL.
type jtEval struct {
	width int
	table string
}

// rows is the rows of list cols for the row source v, its ordinal n.
func (e *jtEval) rows(cols []jtColumn, v mysqljson.Value, n int) ([][]*string, error) {
	own := make([]*string, e.width)
	for _, c := range cols {
		if c.isNested {
			continue
		}
		val, err := e.value(c, v, n)
		if err != nil {
			return nil, err
		}
		own[c.first] = val
	}
	var out [][]*string
	nestedAny := false
	for _, c := range cols {
		if !c.isNested {
			continue
		}
		nestedAny = true
		pt, err := mysqljson.ParsePath(c.path)
		if err != nil {
			return nil, err
		}
		for i, m := range pt.Seek(v) {
			sub, err := e.rows(c.nested, m.Val, i+1)
			if err != nil {
				return nil, err
			}
			for _, r := range sub {
				row := append([]*string(nil), own...)
				copy(row[c.first:c.first+c.width], r[c.first:c.first+c.width])
				out = append(out, row)
			}
		}
	}
	if !nestedAny || len(out) == 0 {
		out = append(out, own)
	}
	return out, nil
}

// value is column c's value in row source v (ordinal n).
func (e *jtEval) value(c jtColumn, v mysqljson.Value, n int) (*string, error) {
	text := func(s string) *string { return &s }
	if c.ordinality {
		return text(strconv.Itoa(n)), nil
	}
	pt, err := mysqljson.ParsePath(c.path)
	if err != nil {
		return nil, err
	}
	matches := pt.Seek(v)
	if c.exists {
		return text(strconv.Itoa(b2int(len(matches) > 0))), nil
	}
	switch {
	case len(matches) == 0:
		switch c.onEmpty.kind {
		case "error":
			return nil, fmt.Errorf("Missing value for JSON_TABLE column '%s'", c.name)
		case "default":
			return text(c.onEmpty.value), nil
		}
		return nil, nil
	case len(matches) > 1:
		return e.onError(c, fmt.Errorf("Can't store an array or an object in the scalar column '%s' of JSON_TABLE '%s'.", c.name, e.table))
	}
	return e.scalar(c, matches[0].Val)
}

// scalar is a JSON value as the text column c's type reads.
func (e *jtEval) scalar(c jtColumn, v mysqljson.Value) (*string, error) {
	t, _ := jtType(c)
	if t.JSON {
		s := mysqljson.Format(v)
		return &s, nil
	}
	var s string
	switch x := v.(type) {
	case nil:
		return nil, nil
	case bool:
		s = strconv.FormatBool(x)
		if t.ID != columnar.String {
			s = strconv.Itoa(b2int(x))
		}
	case string:
		s = x
	case []mysqljson.Value, *mysqljson.Object:
		return e.onError(c, fmt.Errorf("Can't store an array or an object in the scalar column '%s' of JSON_TABLE '%s'.", c.name, e.table))
	default:
		s = mysqljson.Format(x)
	}
	return &s, nil
}

// onError is column c's ON ERROR answer to err.
func (e *jtEval) onError(c jtColumn, err error) (*string, error) {
	switch c.onError.kind {
	case "error":
		return nil, err
	case "default":
		s := c.onError.value
		return &s, nil
	}
	return nil, nil
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}
