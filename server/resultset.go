package server

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/go-mysql-org/go-mysql/mysql"

	"gpusql/exec"
	"gpusql/storage/columnar"
)

// Column metadata and rows in MySQL's two row formats: the text protocol
// (COM_QUERY: every value as its text) and the binary protocol (prepared
// statements: numbers in their binary form). Types follow what MySQL 8
// reports for the same column:
//
//	INT      LONG (11)           BIGINT  LONGLONG (20)
//	DOUBLE   DOUBLE (22)         DECIMAL(p,s) NEWDECIMAL (p+2, s decimals)
//	DATE     DATE (10)           BOOLEAN TINY (1), as TINYINT(1)
//	VARCHAR(n) VAR_STRING (4n bytes of utf8mb4)

const (
	charsetBinary  = 63  // numbers and dates
	charsetUTF8MB4 = 255 // utf8mb4_0900_ai_ci
)

// fields describes the result's columns.
func fields(r *exec.Result) []*mysql.Field {
	fs := make([]*mysql.Field, len(r.Columns))
	for j := range r.Columns {
		name := ""
		if j < len(r.Names) {
			name = r.Names[j]
		}
		f := &mysql.Field{Name: []byte(name), OrgName: []byte(name), Charset: charsetBinary, Flag: mysql.BINARY_FLAG}
		t := r.ClientType(j)
		switch t.ID {
		case columnar.Int32:
			f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_LONG, 11, mysql.BINARY_FLAG|mysql.NUM_FLAG
			if t.Year {
				f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_YEAR, 4, mysql.BINARY_FLAG|mysql.NUM_FLAG|mysql.UNSIGNED_FLAG|mysql.ZEROFILL_FLAG
			}
		case columnar.Int64:
			f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_LONGLONG, 20, mysql.BINARY_FLAG|mysql.NUM_FLAG
			if t.Unsigned {
				// INT UNSIGNED too goes as an 8-byte LONGLONG: the binary
				// protocol then sends the int64 slot as it is.
				f.Flag |= mysql.UNSIGNED_FLAG
			}
			if t.Bit > 0 {
				f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_BIT, uint32(t.Bit), mysql.UNSIGNED_FLAG
			}
			if t.ZeroFill > 0 { // clients pad binary-protocol values themselves
				f.ColumnLength, f.Flag = uint32(t.ZeroFill), f.Flag|mysql.ZEROFILL_FLAG
			}
		case columnar.Float64:
			f.Type, f.ColumnLength, f.Decimal, f.Flag = mysql.MYSQL_TYPE_DOUBLE, 22, 31, mysql.BINARY_FLAG|mysql.NUM_FLAG
			if t.Scale > 0 { // fixed decimals (PI()): the client prints that many
				f.Decimal = uint8(t.Scale)
			}
			if t.Single { // a FLOAT column: 4 bytes in the binary protocol
				f.Type, f.ColumnLength = mysql.MYSQL_TYPE_FLOAT, 12
			}
		case columnar.Decimal:
			// MySQL's display length: the digits, a sign and, with a
			// scale, the point (clients take the precision back from it).
			f.Type, f.ColumnLength, f.Decimal = mysql.MYSQL_TYPE_NEWDECIMAL, uint32(t.Precision+1), uint8(t.Scale)
			if t.Scale > 0 {
				f.ColumnLength++
			}
			f.Flag = mysql.BINARY_FLAG | mysql.NUM_FLAG
		case columnar.Date:
			f.Type, f.ColumnLength = mysql.MYSQL_TYPE_DATE, 10
		case columnar.Time:
			f.Type, f.ColumnLength, f.Decimal = mysql.MYSQL_TYPE_TIME, 10, uint8(t.Scale)
			if t.Scale > 0 {
				f.ColumnLength += uint32(t.Scale + 1)
			}
		case columnar.Datetime:
			f.Type, f.ColumnLength, f.Decimal = mysql.MYSQL_TYPE_DATETIME, 19, uint8(t.Scale)
			if t.Timestamp {
				f.Type = mysql.MYSQL_TYPE_TIMESTAMP
			}
			if t.Scale > 0 {
				f.ColumnLength += uint32(t.Scale + 1)
			}
		case columnar.Bool:
			f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_TINY, 1, mysql.BINARY_FLAG|mysql.NUM_FLAG
		case columnar.String:
			if t.JSON {
				// As MySQL sends a JSON column: type JSON, binary
				// charset, BLOB_FLAG, the longest length; text values.
				f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_JSON, 1<<32-1, mysql.BLOB_FLAG|mysql.BINARY_FLAG
				break
			}
			fallthrough
		default:
			width := t.Width
			if width <= 0 {
				width = 16383 // VARCHAR without a length: the most utf8mb4 allows
			}
			f.Type, f.ColumnLength, f.Charset, f.Flag = mysql.MYSQL_TYPE_VAR_STRING, uint32(4*width), charsetUTF8MB4, 0
			if r.IsBlob(j) { // TEXT / BLOB: 65535 bytes, 4 a character for TEXT
				f.Type, f.ColumnLength, f.Flag = mysql.MYSQL_TYPE_BLOB, 4*65535, mysql.BLOB_FLAG
			}
			if t.ID == columnar.String {
				stringField(t, f)
			}
		}
		narrowIntField(t, f) // TINYINT .. MEDIUMINT [UNSIGNED]: their own wire types
		if r.IsNotNull(j) {
			f.Flag |= mysql.NOT_NULL_FLAG
		}
		f.Flag |= originFlags(r.Origin(j))
		fs[j] = f
	}
	return fs
}

// packetWriter writes one protocol packet (4 bytes of header room
// first); the library's connection is one.
type packetWriter interface{ WritePacket([]byte) error }

// writeResult sends a result set: the column count, the column
// definitions, EOF, one packet per row (text or binary) and EOF. Rows are
// formatted one at a time into one buffer, so a large result costs the
// server no second copy (the library's own result set would hold every
// row). The caller answers the library with sentResult.
func writeResult(w packetWriter, r *exec.Result, binaryRows bool, status uint16) (*mysql.Result, error) {
	fs := fields(r)
	buf := append(make([]byte, 4, 1024), mysql.PutLengthEncodedInt(uint64(len(fs)))...)
	if err := w.WritePacket(buf); err != nil {
		return nil, err
	}
	for _, f := range fs {
		if err := w.WritePacket(append(buf[:4], f.Dump()...)); err != nil {
			return nil, err
		}
	}
	eof := []byte{0, 0, 0, 0, mysql.EOF_HEADER, 0, 0, byte(status), byte(status >> 8)}
	if err := w.WritePacket(slices.Clone(eof)); err != nil {
		return nil, err
	}
	for i := 0; i < r.Rows; i++ {
		if binaryRows {
			buf = appendBinaryRow(buf[:4], r, i)
		} else {
			buf = appendTextRow(buf[:4], r, i)
		}
		if err := w.WritePacket(buf); err != nil {
			return nil, err
		}
	}
	if err := w.WritePacket(eof); err != nil {
		return nil, err
	}
	// A streamed result the library takes as sent: it writes nothing more.
	return &mysql.Result{Resultset: &mysql.Resultset{Fields: fs, Streaming: mysql.StreamingMultiple, StreamingDone: true}}, nil
}

func appendTextRow(row []byte, r *exec.Result, i int) []byte {
	for _, c := range r.Columns {
		if c.IsNull(i) {
			row = append(row, 0xfb)
			continue
		}
		row = append(row, mysql.PutLengthEncodedString([]byte(exec.FormatValue(c, i)))...)
	}
	return row
}

// appendBinaryRow appends a binary protocol row: a 0 header, the NULL bitmap (bit
// j+2 for column j), then each non-NULL value.
func appendBinaryRow(row []byte, r *exec.Result, i int) []byte {
	n := len(r.Columns)
	start := len(row)
	row = append(row, make([]byte, 1+(n+7+2)/8)...)
	for j, c := range r.Columns {
		if c.IsNull(i) {
			row[start+1+(j+2)/8] |= 1 << ((j + 2) % 8)
			continue
		}
		if r.ClientType(j).ID == columnar.Decimal && c.Type.ID != columnar.Decimal {
			// A SUM told as MySQL's DECIMAL: its text, as DECIMALs go.
			row = append(row, mysql.PutLengthEncodedString([]byte(exec.FormatValue(c, i)))...)
			continue
		}
		if isNarrowIntWire(c.Type) {
			row = appendNarrowInt(row, c, i)
			continue
		}
		switch c.Type.ID {
		case columnar.Int32:
			if c.Type.Year { // MySQL sends YEAR as a 2-byte integer
				row = binary.LittleEndian.AppendUint16(row, uint16(c.I32[i]))
				break
			}
			row = binary.LittleEndian.AppendUint32(row, uint32(c.I32[i]))
		case columnar.Int64:
			if c.Type.Bit > 0 { // BIT: its bytes, as MySQL sends it
				row = append(row, mysql.PutLengthEncodedString([]byte(exec.FormatValue(c, i)))...)
				break
			}
			row = binary.LittleEndian.AppendUint64(row, uint64(c.I64[i]))
		case columnar.Float64:
			if c.Type.Single {
				row = binary.LittleEndian.AppendUint32(row, math.Float32bits(float32(c.F64[i])))
				break
			}
			row = binary.LittleEndian.AppendUint64(row, math.Float64bits(c.F64[i]))
		case columnar.Bool:
			row = append(row, byte(c.I32[i]))
		case columnar.Date:
			d := exec.DateTime(c.I32[i])
			row = append(row, 4)
			row = binary.LittleEndian.AppendUint16(row, uint16(d.Year()))
			row = append(row, byte(d.Month()), byte(d.Day()))
		case columnar.Datetime:
			row = appendBinaryDatetime(row, c.I64[i])
		case columnar.Time:
			row = appendBinaryTime(row, c.I64[i])
		default: // DECIMAL and VARCHAR: length-encoded text
			row = append(row, mysql.PutLengthEncodedString([]byte(exec.FormatValue(c, i)))...)
		}
	}
	return row
}

// appendBinaryTime writes a TIME in the binary protocol: length 8 (sign,
// days, hours, minutes, seconds) or 12 (with microseconds), hours past 24
// carried as days.
func appendBinaryTime(row []byte, us int64) []byte {
	neg, h, mi, s, micro := columnar.TimeParts(us)
	n := byte(8)
	if micro != 0 {
		n = 12
	}
	sign := byte(0)
	if neg {
		sign = 1
	}
	row = append(row, n, sign)
	row = binary.LittleEndian.AppendUint32(row, uint32(h/24))
	row = append(row, byte(h%24), byte(mi), byte(s))
	if micro != 0 {
		row = binary.LittleEndian.AppendUint32(row, uint32(micro))
	}
	return row
}

// appendBinaryDatetime writes a DATETIME/TIMESTAMP in the binary protocol:
// length 7 (date and time) or 11 (with microseconds).
func appendBinaryDatetime(row []byte, us int64) []byte {
	y, mo, d, h, mi, s, micro := columnar.DatetimeParts(us)
	n := byte(7)
	if micro != 0 {
		n = 11
	}
	row = append(row, n)
	row = binary.LittleEndian.AppendUint16(row, uint16(y))
	row = append(row, byte(mo), byte(d), byte(h), byte(mi), byte(s))
	if micro != 0 {
		row = binary.LittleEndian.AppendUint32(row, uint32(micro))
	}
	return row
}

// MySQL's flags (include/mysql_com.h) the library does not name.
const (
	multipleKeyFlag    = 8
	noDefaultValueFlag = 4096
	onUpdateNowFlag    = 8192
)

// originFlags are the flags of a table column's definition that MySQL
// sends with a result column read straight from it.
func originFlags(o exec.ColumnOrigin) uint16 {
	var flag uint16
	for _, b := range []struct {
		on   bool
		flag uint16
	}{{o.Primary, mysql.PRI_KEY_FLAG}, {o.Unique, mysql.UNIQUE_KEY_FLAG}, {o.Multiple, multipleKeyFlag},
		{o.PartKey, mysql.PART_KEY_FLAG}, {o.AutoInc, mysql.AUTO_INCREMENT_FLAG}, {o.NoDefault, noDefaultValueFlag},
		{o.NowAuto, mysql.TIMESTAMP_FLAG}, {o.OnUpdateNow, onUpdateNowFlag}} {
		if b.on {
			flag |= b.flag
		}
	}
	return flag
}
