package cpu

import (
	"gpusql/planner"
	"gpusql/sql"
)

// UNION, INTERSECT and EXCEPT (distinct or ALL) past the memory limit run
// their inputs again into partition files by a hash of the whole row (in
// the output's types, so that 1 and 1.0 meet), then apply the set
// operation partition by partition: equal rows share a partition, so
// distinctness and the ALL forms' counting hold per partition. UNION ALL
// streams its inputs into its consumer (union_all.go) and never gets here.
// The rows come partition by partition: a set operation promises no
// order. A partition whose inputs do not fit is partitioned again with
// another seed (up to aggMaxDepth levels, as a spilled aggregation's).

func (x *executor) setOpSpilled(n *planner.SetOp, cause error, restore func()) (*rel, error) {
	types := typesOf(n.Out)
	if !isMemoryLimit(cause) || x.runsOnce || (n.Kind == sql.SetUnion && n.All) ||
		!spillableTypes(types) || !spillableTypes(typesOf(n.Left.Schema())) || !spillableTypes(typesOf(n.Right.Schema())) {
		return nil, cause
	}
	restore()
	var count spillCount
	var sides [2]*partitioner
	if collatedSchema(n.Out) {
		// One worker writes the partitions in input order, so that each
		// keeps the left input's first spelling of a collation key.
		defer func(w int) { x.workers = w }(x.workers)
		x.workers = 1
	}
	for i, in := range []planner.Node{n.Left, n.Right} {
		sides[i] = newPartitioner(x, n, typesOf(in.Schema()), rowKeys(in, n.Out), 0, &count)
		defer sides[i].drop()
		if err := x.runPipeline(in, sides[i], n); err != nil {
			return nil, err
		}
	}
	var outs []*rel
	fail := func(err error) (*rel, error) {
		for _, o := range outs {
			x.free(o)
		}
		return nil, err
	}
	for p := range sides[0].parts {
		out, err := x.setOpParts(n, sides[0].parts[p], sides[1].parts[p], 1, &count)
		if err != nil {
			return fail(err)
		}
		outs = append(outs, out...)
		sides[0].parts[p].f.Remove()
		sides[1].parts[p].f.Remove()
	}
	if x.stats != nil {
		x.stats.AddSpill(n.Props().ID, count.files, count.wrote)
	}
	if len(outs) == 0 {
		return &rel{types: types, cols: emptyCols(types)}, nil
	}
	return x.concatOwned(n, outs)
}

// setOpParts applies n to one partition of each input, partitioning both
// again with another seed (depth) when they do not fit together: equal
// rows still meet. Rows that all hash alike on both sides stop with the
// memory limit error.
func (x *executor) setOpParts(n *planner.SetOp, lp, rp *partFile, depth int, count *spillCount) ([]*rel, error) {
	out, err := x.setOpPart(n, lp, rp)
	switch {
	case err == nil && out == nil:
		return nil, nil
	case err == nil:
		return []*rel{out}, nil
	case !isMemoryLimit(err) || depth >= aggMaxDepth:
		return nil, err
	}
	var sides [2]*partitioner
	for i, in := range []planner.Node{n.Left, n.Right} {
		types := typesOf(in.Schema())
		sides[i] = newPartitioner(x, n, types, rowKeys(in, n.Out), uint64(depth), count)
		defer sides[i].drop()
		if f := []*partFile{lp, rp}[i].f; f != nil {
			if err := x.runBlocks(f, types, sides[i], nil); err != nil {
				return nil, err
			}
		}
	}
	if !sides[0].splits() && !sides[1].splits() {
		return nil, err
	}
	var outs []*rel
	for p := range sides[0].parts {
		out, err := x.setOpParts(n, sides[0].parts[p], sides[1].parts[p], depth+1, count)
		sides[0].parts[p].f.Remove()
		sides[1].parts[p].f.Remove()
		if err != nil {
			for _, o := range outs {
				x.free(o)
			}
			return nil, err
		}
		outs = append(outs, out...)
	}
	return outs, nil
}

// setOpPart applies n to one partition of each input (nil: no row).
func (x *executor) setOpPart(n *planner.SetOp, lp, rp *partFile) (*rel, error) {
	if lp.f == nil && (rp.f == nil || n.Kind != sql.SetUnion) {
		return nil, nil // INTERSECT and EXCEPT keep left rows only
	}
	var sides [2]*rel
	for i, part := range []*partFile{lp, rp} {
		types := typesOf([]planner.Node{n.Left, n.Right}[i].Schema())
		sides[i] = &rel{types: types, cols: emptyCols(types)}
		if part.f != nil {
			r, err := x.readRel(part.f, types, n)
			if err != nil {
				x.free(sides[0])
				return nil, err
			}
			sides[i] = r
		}
	}
	out, err := x.setOpRels(n, sides[0], sides[1])
	x.free(sides[0])
	x.free(sides[1])
	if err != nil {
		return nil, err
	}
	return out, x.own(n, out)
}

// rowKeys are an input's columns in the output's types (a column of a
// case-insensitive collation as its keys: setOpKeys), to hash rows by.
func rowKeys(in planner.Node, out sql.Schema) func(cp *compiler) ([]evaluator, error) {
	return func(cp *compiler) ([]evaluator, error) {
		var evs []evaluator
		for i, c := range in.Schema() {
			ev, err := cp.compile(&sql.ColRef{Index: i, Col: c})
			if err != nil {
				return nil, err
			}
			if keyDomain(c.Type) != keyDomain(out[i].Type) {
				ev = castTo(ev, c.Type, out[i].Type)
			}
			if out[i].Collation != "" {
				k := sql.CollationKeyOf(&sql.ColRef{Index: i, Col: c}, out[i].Collation)
				if ev, err = cp.compile(k); err != nil {
					return nil, err
				}
			}
			evs = append(evs, ev)
		}
		return evs, nil
	}
}

// collatedSchema reports whether a column of s has a case-insensitive
// collation.
func collatedSchema(s sql.Schema) bool {
	for _, c := range s {
		if c.Collation != "" {
			return true
		}
	}
	return false
}
