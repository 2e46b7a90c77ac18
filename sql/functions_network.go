package sql

import "gpusql/storage/columnar"

// Address and UUID functions of MySQL 8, bound as the library of
// functions_more.go and evaluated by exec/cpu/rowfunc_network.go. Binary
// strings are VARCHAR values holding bytes (as UNHEX's), so INET6_NTOA
// reads any 4- or 16-byte string (MySQL also demands the binary charset).
//
//	name           args (after casts)           result
//	inet_aton      s VARCHAR                    BIGINT UNSIGNED; short forms as MySQL ('127.1' is
//	                                            127.0.0.1); an invalid address gives NULL
//	inet_ntoa      n BIGINT                     VARCHAR dotted quad; n outside 0..2^32-1 gives NULL
//	inet6_aton     s VARCHAR                    VARCHAR (binary) of 4 or 16 bytes; invalid gives NULL
//	inet6_ntoa     b VARCHAR                    VARCHAR; 4 bytes dotted, 16 bytes IPv6 text with
//	                                            MySQL's '::' (the longest zero run, even of one
//	                                            group) and a dotted tail for ::a.b.c.d, ::ffff:a.b.c.d
//	is_ipv4, is_ipv6  s VARCHAR                 INT 1/0 (NULL gives 0), as INET6_ATON parses
//	is_ipv4_compat,   b VARCHAR                 INT 1/0 (NULL gives 0) for 16 bytes ::a.b.c.d
//	is_ipv4_mapped                              (a.b.c.d > 0.0.0.1) / ::ffff:a.b.c.d
//	is_uuid        s VARCHAR                    INT 1/0: 32 hex digits, bare, dashed 8-4-4-4-12,
//	                                            or dashed in braces
//	uuid_to_bin    s VARCHAR [, swap BIGINT]    VARCHAR (binary) of 16 bytes; swap <> 0 moves the
//	                                            time-high group first; an invalid UUID is an error
//	bin_to_uuid    b VARCHAR [, swap BIGINT]    VARCHAR dashed lower-case; b not 16 bytes is an error
func init() {
	for _, n := range []string{"inet_aton", "inet_ntoa", "inet6_aton", "inet6_ntoa", "is_ipv4", "is_ipv6",
		"is_ipv4_compat", "is_ipv4_mapped", "is_uuid", "uuid_to_bin", "bin_to_uuid"} {
		moreFuncs[n] = true
	}
}

// NetworkNullSafe lists the functions whose result for a NULL argument is
// 0, not NULL (exec/cpu calls their bodies with NULL arguments).
var NetworkNullSafe = map[string]bool{"is_ipv4": true, "is_ipv6": true, "is_ipv4_compat": true, "is_ipv4_mapped": true}

// networkFunc binds the functions listed above.
func (c *call) networkFunc() (Expr, bool, error) {
	switch c.name {
	case "inet_aton", "inet6_aton", "inet6_ntoa":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		t := columnar.TString
		if c.name == "inet_aton" {
			t = columnar.TUint64
		}
		return c.fn(t, c.str(c.args[0]))
	case "is_ipv4", "is_ipv6", "is_ipv4_compat", "is_ipv4_mapped", "is_uuid":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		return c.fn(columnar.TInt64, c.str(c.args[0]))
	case "inet_ntoa":
		if err := c.nativeArity(1, 1); err != nil {
			return nil, true, err
		}
		n := c.args[0]
		if !n.Type().IsBigUnsigned() {
			var err error
			if n, err = c.wholeNumber(n); err != nil {
				return nil, true, err
			}
		}
		return c.fn(columnar.TString, n)
	case "uuid_to_bin", "bin_to_uuid":
		if err := c.nativeArity(1, 2); err != nil {
			return nil, true, err
		}
		swap := Expr(&Const{T: columnar.TInt64})
		if len(c.args) == 2 {
			var err error
			if swap, err = c.wholeNumber(c.args[1]); err != nil {
				return nil, true, err
			}
		}
		return c.fn(columnar.TString, c.str(c.args[0]), swap)
	}
	return nil, false, nil
}
