package planner

import (
	"math"
	"math/bits"

	"gpusql/sql"
)

// A join region is a maximal tree of inner and cross joins (and the filters
// between them): its inputs ("relations") may be joined in any order, which
// joinOrder chooses. Every condition of the region becomes a predicate over
// the concatenation of the relations' columns (the region's output schema):
// equalities between two sets of relations are join edges, anything else is
// applied as soon as the relations it references are joined.

// isRegionJoin reports whether j belongs to a join region.
func isRegionJoin(j *sql.Join) bool { return j.Kind == sql.JoinInner || j.Kind == sql.JoinCross }

type regionRel struct {
	plan   sql.Plan
	offset int // first column in the region's schema
	width  int
	node   Node
}

type regionPred struct {
	e    sql.Expr // over the region's schema
	mask uint64   // relations it references
	// For equalities between two disjoint relation sets: the sides.
	l, r         sql.Expr
	lmask, rmask uint64
	sel          float64
}

type region struct {
	rels  []*regionRel
	preds []*regionPred
	top   []sql.Expr // predicates over no relation (constants)
	width int
}

// collect flattens p into rels and predicates; offset is where p's columns
// start in the region's schema.
func (rg *region) collect(p sql.Plan, offset int) {
	switch n := p.(type) {
	case *sql.Join:
		if isRegionJoin(n) {
			nl := len(n.Left.Schema())
			rg.collect(n.Left, offset)
			rg.collect(n.Right, offset+nl)
			for i := range n.LeftKeys {
				eq := &sql.Binary{Op: sql.OpEQ, L: shiftCols(n.LeftKeys[i], offset),
					R: shiftCols(n.RightKeys[i], offset+nl), T: boolConst(true).T}
				rg.addPred(eq)
			}
			for _, c := range conjuncts(n.Residual) {
				rg.addPred(shiftCols(c, offset))
			}
			return
		}
	case *sql.Filter:
		if j, ok := n.Input.(*sql.Join); ok && isRegionJoin(j) {
			rg.collect(n.Input, offset)
			for _, c := range conjuncts(n.Cond) {
				rg.addPred(shiftCols(c, offset))
			}
			return
		}
	}
	w := len(p.Schema())
	rg.rels = append(rg.rels, &regionRel{plan: p, offset: offset, width: w})
	if offset+w > rg.width {
		rg.width = offset + w
	}
}

// addPred records a predicate; masks are filled in by classify once every
// relation is known.
func (rg *region) addPred(e sql.Expr) { rg.preds = append(rg.preds, &regionPred{e: e}) }

func (rg *region) relOf(col int) int {
	for i, r := range rg.rels {
		if col >= r.offset && col < r.offset+r.width {
			return i
		}
	}
	return 0
}

func (rg *region) maskOf(e sql.Expr) uint64 {
	var m uint64
	for _, c := range colList(e) {
		m |= 1 << uint(rg.relOf(c))
	}
	return m
}

// classify computes predicate masks, splits equalities into sides, and moves
// single-relation predicates onto their relation (pushdown has normally done
// so already).
func (rg *region) classify() (single map[int][]sql.Expr) {
	single = map[int][]sql.Expr{}
	var preds []*regionPred
	for _, p := range rg.preds {
		p.mask = rg.maskOf(p.e)
		switch bits.OnesCount64(p.mask) {
		case 0:
			rg.top = append(rg.top, p.e)
			continue
		case 1:
			i := bits.TrailingZeros64(p.mask)
			single[i] = append(single[i], shiftCols(p.e, -rg.rels[i].offset))
			continue
		}
		if b, ok := p.e.(*sql.Binary); ok && b.Op == sql.OpEQ && b.L.Type().Physical() == b.R.Type().Physical() {
			lm, rm := rg.maskOf(b.L), rg.maskOf(b.R)
			if lm != 0 && rm != 0 && lm&rm == 0 {
				p.l, p.r, p.lmask, p.rmask = b.L, b.R, lm, rm
			}
		}
		preds = append(preds, p)
	}
	rg.preds = preds
	return single
}

// buildRegion plans a join region: each relation, then the join order, then
// a projection back to the region's column order.
func (b *builder) buildRegion(p sql.Plan) (Node, error) {
	rg := &region{}
	rg.collect(p, 0)
	if len(rg.rels) > 64 {
		return nil, errTooManyRelations(len(rg.rels))
	}
	for _, pr := range rg.preds {
		e, err := b.expr(pr.e)
		if err != nil {
			return nil, err
		}
		pr.e = e
	}
	single := rg.classify()
	for i, r := range rg.rels {
		n, err := b.build(r.plan)
		if err != nil {
			return nil, err
		}
		if cs := single[i]; len(cs) > 0 {
			n = b.filter(n, andAll(cs))
		}
		r.node = n
	}
	for _, pr := range rg.preds {
		pr.sel = b.predSel(rg, pr)
	}
	jo := newJoinOrder(b, rg)
	node, cols := jo.plan()
	// Back to the region's column order.
	schema := p.Schema()
	ident := len(cols) == len(schema)
	for i, c := range cols {
		ident = ident && c == i
	}
	if !ident {
		pos := make(map[int]int, len(cols))
		for i, c := range cols {
			pos[c] = i
		}
		in := node.Schema()
		exprs := make([]sql.Expr, len(schema))
		for g := range schema {
			exprs[g] = &sql.ColRef{Index: pos[g], Col: in[pos[g]]}
		}
		node = b.projection(node, exprs, schema)
	}
	if len(rg.top) > 0 {
		node = b.filter(node, andAll(rg.top))
	}
	return node, nil
}

// predSel is a join predicate's selectivity: 1/max(distinct) for an
// equality, the default otherwise.
func (b *builder) predSel(rg *region, p *regionPred) float64 {
	if p.l == nil {
		return defaultSel
	}
	d := func(e sql.Expr, mask uint64) float64 {
		if c, ok := e.(*sql.ColRef); ok {
			r := rg.rels[rg.relOf(c.Index)]
			return math.Max(b.stats[r.node].Cols[c.Index-r.offset].Distinct, 1)
		}
		rows := 1.0
		for m := mask; m != 0; m &= m - 1 {
			rows *= b.stats[rg.rels[bits.TrailingZeros64(m)].node].Rows
		}
		return math.Max(rows, 1)
	}
	return 1 / math.Max(d(p.l, p.lmask), d(p.r, p.rmask))
}
