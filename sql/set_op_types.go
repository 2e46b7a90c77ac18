package sql

// MySQL runs a query expression of several set operations (a UNION b
// UNION ALL c EXCEPT d) into one temporary table whose column types are
// aggregated over every query block at once, and stores each block's
// values into it from their own types. Combining the blocks pair by pair
// instead would convert through the intermediate type: in
//
//	SELECT 1 UNION ALL SELECT 1.5 UNION ALL SELECT 'a'
//
// the 1 would first become the DECIMAL 1.0 and then the string '1.0',
// where MySQL's VARCHAR column holds '1'. A parenthesized query expression
// is a block of its own: its result type is what the outer one sees.

// unifySetBranches casts every branch to the column types common to all
// of them. Branches whose column counts differ are left as they are, for
// combine to report.
func unifySetBranches(blks []*block) {
	if len(blks) < 3 {
		return // two branches: combine's pair is already the whole set
	}
	for _, blk := range blks[1:] {
		if len(blk.names) != len(blks[0].names) || len(blk.plan.Schema()) < len(blk.names) {
			return
		}
	}
	if len(blks[0].plan.Schema()) < len(blks[0].names) {
		return
	}
	out := make(Schema, len(blks[0].names))
	for i := range out {
		t := blks[0].plan.Schema()[i].Type
		for _, blk := range blks[1:] {
			var err error
			if t, err = unionType(t, blk.plan.Schema()[i].Type); err != nil {
				return // combine reports it for the pair that fails
			}
		}
		out[i].Type = t
	}
	for _, blk := range blks {
		sch := blk.plan.Schema()
		to := make(Schema, len(out))
		for i := range to {
			to[i] = sch[i]
			to[i].Type = out[i].Type
		}
		blk.plan = castColumns(blk.plan, blk.names, to)
	}
}
