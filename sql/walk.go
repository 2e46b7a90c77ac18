package sql

// walkExpr calls f on every node of e in pre-order; f returns false to skip
// a node's children. Subquery plans are not entered.
func walkExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	switch e := e.(type) {
	case *Binary:
		walkExpr(e.L, f)
		walkExpr(e.R, f)
	case *Not:
		walkExpr(e.E, f)
	case *Neg:
		walkExpr(e.E, f)
	case *IsNull:
		walkExpr(e.E, f)
	case *InList:
		walkExpr(e.E, f)
		for _, x := range e.List {
			walkExpr(x, f)
		}
	case *Like:
		walkExpr(e.E, f)
	case *CodeSet:
		walkExpr(e.E, f)
	case *Case:
		for _, w := range e.Whens {
			walkExpr(w.Cond, f)
			walkExpr(w.Result, f)
		}
		walkExpr(e.Else, f)
	case *Cast:
		walkExpr(e.E, f)
	case *Func:
		for _, x := range e.Args {
			walkExpr(x, f)
		}
	case *NestedSubquery:
		for _, x := range e.LHS {
			walkExpr(x, f)
		}
		for _, x := range e.Args {
			walkExpr(x, f)
		}
	}
}

// transform rebuilds e bottom-up where f replaces a node (f returns the
// replacement and true); untouched subtrees are shared.
func transform(e Expr, f func(Expr) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	switch e := e.(type) {
	case *Binary:
		c := *e
		c.L, c.R = transform(e.L, f), transform(e.R, f)
		return &c
	case *Not:
		return &Not{E: transform(e.E, f)}
	case *Neg:
		return &Neg{E: transform(e.E, f), Text: e.Text}
	case *IsNull:
		return &IsNull{E: transform(e.E, f), Negated: e.Negated}
	case *InList:
		c := &InList{E: transform(e.E, f), Negated: e.Negated, List: make([]Expr, len(e.List))}
		for i, x := range e.List {
			c.List[i] = transform(x, f)
		}
		return c
	case *Like:
		return &Like{E: transform(e.E, f), Pattern: e.Pattern, Negated: e.Negated}
	case *CodeSet:
		c := *e
		if r, ok := transform(e.E, f).(*ColRef); ok {
			c.E = r
		}
		return &c
	case *Case:
		c := &Case{T: e.T, Else: transform(e.Else, f), Whens: make([]When, len(e.Whens))}
		for i, w := range e.Whens {
			c.Whens[i] = When{Cond: transform(w.Cond, f), Result: transform(w.Result, f)}
		}
		return c
	case *Cast:
		return &Cast{E: transform(e.E, f), T: e.T, Written: e.Written}
	case *Func:
		c := &Func{Name: e.Name, T: e.T, Args: make([]Expr, len(e.Args)), Text: e.Text}
		for i, x := range e.Args {
			c.Args[i] = transform(x, f)
		}
		return c
	case *NestedSubquery:
		c := *e
		c.LHS = make([]Expr, len(e.LHS))
		for i, x := range e.LHS {
			c.LHS[i] = transform(x, f)
		}
		c.Args = make([]Expr, len(e.Args))
		for i, x := range e.Args {
			c.Args[i] = transform(x, f)
		}
		return &c
	}
	return e
}

func hasOuterRef(e Expr) bool {
	found := false
	walkExpr(e, func(x Expr) bool {
		if _, ok := x.(*outerRef); ok {
			found = true
		}
		return !found
	})
	return found
}

func hasColRef(e Expr) bool {
	found := false
	walkExpr(e, func(x Expr) bool {
		if _, ok := x.(*ColRef); ok {
			found = true
		}
		if _, ok := x.(*CodeSet); ok {
			found = true
		}
		return !found
	})
	return found
}

// planExprs calls f on every expression held by the plan's nodes.
func planExprs(p Plan, f func(Expr)) {
	switch p := p.(type) {
	case *Filter:
		f(p.Cond)
	case *Project:
		for _, e := range p.Exprs {
			f(e)
		}
	case *Join:
		for _, e := range p.LeftKeys {
			f(e)
		}
		for _, e := range p.RightKeys {
			f(e)
		}
		if p.Residual != nil {
			f(p.Residual)
		}
	case *Aggregate:
		for _, e := range p.GroupBy {
			f(e)
		}
		for _, a := range p.Aggs {
			for _, e := range a.Exprs() {
				f(*e)
			}
		}
	case *Sort:
		for _, k := range p.Keys {
			f(k.Expr)
		}
	case *Window:
		for i := range p.Funcs {
			for _, e := range p.Funcs[i].Exprs() {
				f(e)
			}
		}
	case *Values:
		for _, r := range p.Rows {
			for _, e := range r {
				f(e)
			}
		}
	}
	for _, c := range p.Children() {
		planExprs(c, f)
	}
}

// planHasOuterRef reports whether an outerRef is left anywhere in p,
// subquery plans included.
func planHasOuterRef(p Plan) bool {
	found := false
	planExprs(p, func(e Expr) {
		walkExpr(e, func(x Expr) bool {
			switch x := x.(type) {
			case *outerRef:
				found = true
			case *ScalarSubquery:
				if planHasOuterRef(x.Plan) {
					found = true
				}
			}
			return !found
		})
	})
	return found
}

// outerToLeft rewrites a correlated expression for a join whose left input
// is the enclosing query's plan: outer references become left columns and
// inner columns shift past them.
func outerToLeft(e Expr, leftLen int) Expr {
	return transform(e, func(x Expr) (Expr, bool) {
		switch x := x.(type) {
		case *outerRef:
			return &ColRef{Index: x.Index, Col: x.Col}, true
		case *ColRef:
			return &ColRef{Index: x.Index + leftLen, Col: x.Col}, true
		}
		return nil, false
	})
}

// splitCorrEquality splits inner = outer (either order) into its inner side
// (inner columns only) and outer side (outer references only).
func splitCorrEquality(e Expr) (inner, outer Expr, ok bool) {
	bin, isBin := e.(*Binary)
	if !isBin || bin.Op != OpEQ {
		return nil, nil, false
	}
	innerOnly := func(x Expr) bool { return !hasOuterRef(x) && hasColRef(x) }
	outerOnly := func(x Expr) bool { return hasOuterRef(x) && !hasColRef(x) }
	switch {
	case innerOnly(bin.L) && outerOnly(bin.R):
		return bin.L, bin.R, true
	case innerOnly(bin.R) && outerOnly(bin.L):
		return bin.R, bin.L, true
	}
	return nil, nil, false
}

// Exported helpers for the planner and executors, which rewrite and inspect
// bound expressions too (column remapping after pruning or pushdown).

// WalkExpr calls f on every node of e in pre-order; f returns false to skip
// a node's children. ScalarSubquery plans are not entered.
func WalkExpr(e Expr, f func(Expr) bool) { walkExpr(e, f) }

// TransformExpr returns e rebuilt with every node for which f returns
// (replacement, true) replaced; f sees nodes top-down and a replaced node's
// children are not visited. Untouched subtrees are shared, never mutated.
// A CodeSet's column is remapped when f maps its ColRef to another ColRef.
func TransformExpr(e Expr, f func(Expr) (Expr, bool)) Expr { return transform(e, f) }

// ExprKey renders e with column positions instead of names: two expressions
// with equal keys compute the same value over the same input.
func ExprKey(e Expr) string { return exprKey(e) }
