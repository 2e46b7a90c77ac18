package planner

import "gpusql/sql"

// findFact picks the fact table of a star: at each join the side that holds
// further joins; at the last join (two filtered scans) the probe side when
// the planner knows the build keys are unique, else the larger table.
func findFact(n Node) (*TableScan, error) {
	switch x := n.(type) {
	case *TableScan:
		return x, nil
	case *Filter:
		return findFact(x.Input)
	case *Projection:
		return findFact(x.Input)
	case *HashJoin:
		ls, lok := dimScan(x.Left)
		rs, rok := dimScan(x.Right)
		switch {
		case !lok && !rok:
			return nil, notStar(x, "joins on both sides (bushy plans) are not a star")
		case !lok:
			return findFact(x.Left)
		case !rok:
			return findFact(x.Right)
		case x.Kind != sql.JoinInner:
			return ls, nil
		case x.UniqueBuild:
			return findFact(x.Probe())
		case rs.Table.Rows > ls.Table.Rows:
			return rs, nil
		}
		return ls, nil
	}
	return nil, notStar(n, "")
}

// dimScan returns the scan of a dimension subtree (filters and projections
// over one scan).
func dimScan(n Node) (*TableScan, bool) {
	switch x := n.(type) {
	case *TableScan:
		return x, true
	case *Filter:
		return dimScan(x.Input)
	case *Projection:
		return dimScan(x.Input)
	}
	return nil, false
}

func contains(n Node, target Node) bool {
	found := false
	Walk(n, func(x Node) {
		if x == target {
			found = true
		}
	})
	return found
}

// walkProbe follows the fact table's path from the aggregate down to its
// scan. At each join the side holding the fact scan is the fact side and
// the other must be a dimension (a filtered scan), whichever side the CPU
// plan builds.
func (q *GPUStar) walkProbe(n Node) error {
	if q.Fact == nil {
		var err error
		if q.Fact, err = findFact(n); err != nil {
			return err
		}
	}
	switch x := n.(type) {
	case *TableScan:
		if x != q.Fact {
			return notStar(x, "scan outside the star")
		}
		return nil
	case *Filter:
		q.Filters = append(q.Filters, x)
		return q.walkProbe(x.Input)
	case *Projection:
		return q.walkProbe(x.Input)
	case *HashJoin:
		factSide, err := q.addDim(x)
		if err != nil {
			return err
		}
		return q.walkProbe(factSide)
	}
	return notStar(n, "")
}

// addDim adds join x's dimension to the star and returns x's fact side.
func (q *GPUStar) addDim(x *HashJoin) (Node, error) {
	if x.Kind != sql.JoinInner && x.Kind != sql.JoinSemi {
		return nil, notStar(x, "only inner and semi joins run in the star pipeline")
	}
	if x.Residual != nil || len(x.LeftKeys) != 1 {
		return nil, notStar(x, "joins with several keys or a residual condition")
	}
	factSide, dimSide := x.Left, x.Right
	factKey, dimKey := x.LeftKeys[0], x.RightKeys[0]
	if !contains(x.Left, q.Fact) {
		if x.Kind != sql.JoinInner {
			return nil, notStar(x, "semi-join with the fact table on the right")
		}
		factSide, dimSide = x.Right, x.Left
		factKey, dimKey = dimKey, factKey
	}
	dim := &GPUStarDim{Join: x, Semi: x.Kind == sql.JoinSemi, Sel: 1, Swapped: x.Build() == factSide}
	var err error
	if dim.Scan, err = q.walkBuild(dimSide); err != nil {
		return nil, err
	}
	if rows := dim.Scan.Table.Rows; rows > 0 {
		dim.Sel = min(1, dimSide.Props().EstRows/float64(rows))
	}
	pr, ok1 := ColRefUnder(factKey)
	br, ok2 := ColRefUnder(dimKey)
	if !ok1 || !ok2 {
		return nil, notStar(x, "join keys that are expressions")
	}
	bk, ok := ResolveScanColumn(dimSide, br.Index)
	if !ok || bk.Scan != dim.Scan {
		return nil, notStar(x, "join key is not a dimension column")
	}
	dim.Key = bk.Col
	if dim.Probe, ok = ResolveScanColumn(factSide, pr.Index); !ok {
		return nil, notStar(x, "join key is not a fact column")
	}
	q.Dims = append(q.Dims, dim)
	return factSide, nil
}

// walkBuild accepts a dimension subtree: filters and projections over one
// scan.
func (q *GPUStar) walkBuild(n Node) (*TableScan, error) {
	switch x := n.(type) {
	case *TableScan:
		return x, nil
	case *Filter:
		q.Filters = append(q.Filters, x)
		return q.walkBuild(x.Input)
	case *Projection:
		return q.walkBuild(x.Input)
	}
	return nil, notStar(n, "a join build side must be a filtered table scan in the star pipeline")
}
