package cpu

import "gpusql/sql"

// The functions of explicit collations (sql/collation.go): collate(x, name)
// is x; collation_key and collation_fold give the collation's sort key and
// LIKE folding of x; collation_tagged / collation_untag wrap and unwrap
// the values MIN and MAX compare by key.
func init() {
	stringBodies["collate"] = func(f *rowFunc, a []val) val { return a[0] }
	stringBodies["collation_key"] = func(f *rowFunc, a []val) val { return sv(sql.CollationKey(a[1].s, a[0].s)) }
	stringBodies["collation_fold"] = func(f *rowFunc, a []val) val { return sv(sql.CollationFold(a[1].s, a[0].s)) }
	stringBodies["collation_tagged"] = func(f *rowFunc, a []val) val { return sv(sql.CollationTag(a[1].s, a[0].s)) }
	stringBodies["collation_untag"] = func(f *rowFunc, a []val) val { return sv(sql.CollationUntag(a[0].s)) }
}
