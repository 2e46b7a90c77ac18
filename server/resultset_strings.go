package server

import (
	"strings"
	"unicode/utf8"

	"github.com/go-mysql-org/go-mysql/mysql"

	"gpusql/storage/columnar"
)

// stringField describes the string columns MySQL 8 does not send as a
// utf8mb4 VAR_STRING, so that a client reads the declared type
// (go-sql-driver's DatabaseTypeName): CHAR(n) and BINARY(n) are
// MYSQL_TYPE_STRING; BINARY, VARBINARY and BLOB carry the binary charset
// (63), BINARY_FLAG and their length in bytes; ENUM and SET are
// MYSQL_TYPE_STRING with ENUM_FLAG / SET_FLAG and the length of their
// longest value. f holds the VAR_STRING description on entry.
func stringField(t columnar.Type, f *mysql.Field) {
	if t.Members != "" {
		members := strings.Split(strings.TrimSuffix(t.Members, "\x00"), "\x00")
		longest := 0
		for _, m := range members {
			n := utf8.RuneCountInString(m)
			if t.Set {
				longest += n + 1 // the comma after it
			} else {
				longest = max(longest, n)
			}
		}
		if t.Set && longest > 0 {
			longest-- // no comma after the last
		}
		f.Type, f.ColumnLength = mysql.MYSQL_TYPE_STRING, uint32(4*longest)
		if t.Set {
			f.Flag |= mysql.SET_FLAG
		} else {
			f.Flag |= mysql.ENUM_FLAG
		}
		return
	}
	if t.Char {
		f.Type = mysql.MYSQL_TYPE_STRING
	}
	if t.Binary {
		f.Charset, f.Flag, f.ColumnLength = charsetBinary, f.Flag|mysql.BINARY_FLAG, f.ColumnLength/4
	}
}
