package columnar

import (
	"bytes"
	"fmt"
	"os"
)

// LenientRecords says what LoadDelimitedLenient does with a record whose
// field count differs from the table's.
type LenientRecords struct {
	// Missing[c] is the text a record without field c gives column c; nil
	// is NULL.
	Missing []*string
	// TooFew is called once per missing field (row from 1, after IGNORE n
	// LINES; col the field's index), TooMany once per record with fields
	// past the table's, which are dropped.
	TooFew  func(row, col int)
	TooMany func(row int)
}

// LoadDelimitedLenient reads the delimited file at path into a table of
// t's (text) fields as MySQL's LOAD DATA reads a file in its lenient modes
// (IGNORE, LOCAL or a non-strict sql_mode): a record with too few fields
// takes rec.Missing for the rest, one with too many drops the extra ones,
// and each is reported through rec instead of failing. Every line is a
// record, an empty one a record of one empty field, as in MySQL (the
// parallel LoadDelimited skips blank lines and refuses a wrong field
// count). Fields are read as LoadDelimited reads them (opts.Enclosure's
// quoting with doubled quotes, `\N` or opts.Null unenclosed as NULL), but
// in one pass over the whole file: the lenient modes are for small, dirty
// files, and their values are converted row by row afterwards anyway.
func LoadDelimitedLenient(t *Table, path string, opts DelimitedOptions, rec LenientRecords) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, unwrapPathError(err))
	}
	for i := 0; i < opts.IgnoreLines && len(data) > 0; i++ {
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			data = data[j+1:]
		} else {
			data = nil
		}
	}
	delim := string(opts.Delimiter)
	if opts.Delimiter == 0 {
		delim = ","
	}
	r := lenientReader{data: data, delim: []byte(delim), quote: opts.Enclosure, null: []byte(opts.Null)}
	builders := make([]*Builder, len(t.Fields))
	for c, f := range t.Fields {
		builders[c] = NewBuilder(f.Type)
	}
	rows := 0
	for len(r.data) > 0 {
		rows++
		fields, nulls, err := r.record()
		if err != nil {
			return nil, fmt.Errorf("load %s row %d: %w", path, rows, err)
		}
		for c, b := range builders {
			switch {
			case c < len(fields) && nulls[c]:
				b.AppendNull()
			case c < len(fields):
				b.AppendString(fields[c])
			default:
				if rec.Missing[c] == nil {
					b.AppendNull()
				} else {
					b.AppendString(*rec.Missing[c])
				}
				rec.TooFew(rows, c)
			}
		}
		if len(fields) > len(builders) {
			rec.TooMany(rows)
		}
	}
	out := &Table{Name: t.Name, Fields: t.Fields, Rows: rows}
	for _, b := range builders {
		out.Columns = append(out.Columns, b.Column())
	}
	ComputeStats(out)
	return out, nil
}

// lenientReader cuts records off the front of data.
type lenientReader struct {
	data, delim, null []byte
	quote             rune
}

// record reads one record (through its line break): its fields and which
// are NULL.
func (r *lenientReader) record() (fields []string, nulls []bool, err error) {
	for {
		f, null, err := r.field()
		if err != nil {
			return nil, nil, err
		}
		fields, nulls = append(fields, f), append(nulls, null)
		if bytes.HasPrefix(r.data, r.delim) {
			r.data = r.data[len(r.delim):]
			continue
		}
		if len(r.data) > 0 && r.data[0] == '\r' {
			r.data = r.data[1:]
		}
		if len(r.data) > 0 && r.data[0] == '\n' {
			r.data = r.data[1:]
		}
		return fields, nulls, nil
	}
}

// field reads one field, up to the delimiter or line break after it.
func (r *lenientReader) field() (string, bool, error) {
	d := r.data
	if q := byte(r.quote); r.quote != 0 && len(d) > 0 && d[0] == q {
		var sb []byte
		for i := 1; ; {
			k := bytes.IndexByte(d[i:], q)
			if k < 0 {
				return "", false, fmt.Errorf("unterminated quoted field")
			}
			sb = append(sb, d[i:i+k]...)
			i += k + 1
			if i < len(d) && d[i] == q {
				sb, i = append(sb, q), i+1
				continue
			}
			r.data = d[i:]
			if len(r.data) > 0 && !bytes.HasPrefix(r.data, r.delim) && r.data[0] != '\n' && r.data[0] != '\r' {
				return "", false, fmt.Errorf("unexpected %q after the closing quote", r.data[0])
			}
			return string(sb), false, nil
		}
	}
	end := len(d)
	if j := bytes.IndexByte(d, '\n'); j >= 0 {
		end = j
	}
	if j := bytes.Index(d[:end], r.delim); j >= 0 {
		end = j
	}
	r.data = d[end:]
	f := d[:end]
	if len(r.data) == 0 || r.data[0] == '\n' {
		f = bytes.TrimSuffix(f, []byte{'\r'})
	}
	return string(f), isNullText(f, r.null), nil
}
