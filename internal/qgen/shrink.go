package qgen

// Shrink makes a failing query smaller while fails still holds: it drops
// optional clauses, puts a kid of the same type in place of a node, or a
// literal in place of an expression, and keeps each step that still fails,
// until no step does or maxSteps tries were made. fails must hold for q.
func Shrink(q *Query, fails func(*Query) bool, maxSteps int) *Query {
	cur := q
	tries := 0
	for improved := true; improved && tries < maxSteps; {
		improved = false
		for i := 0; ; i++ {
			cands := candidates(cur.Root, i)
			if cands == nil {
				break
			}
			for _, c := range cands {
				tries++
				next := &Query{Seed: q.Seed, Root: c}
				if next.MySQL() == cur.MySQL() {
					continue
				}
				if fails(next) {
					cur, improved = next, true
					break
				}
			}
			if improved || tries >= maxSteps {
				break
			}
		}
	}
	return cur
}

// candidates are the trees with node i (in pre-order) made smaller, nil
// when the tree has no node i.
func candidates(root *Node, i int) []*Node {
	target := nth(root, i)
	if target == nil {
		return nil
	}
	var edits []func(*Node)
	if target.Optional {
		edits = append(edits, func(n *Node) { n.dropped = true })
	}
	if target.Type != TNone && !target.Pinned && !target.Literal {
		if !target.Frozen {
			for k, kid := range target.Kids {
				if kid.Type == target.Type {
					edits = append(edits, func(n *Node) { *n = *n.Kids[k] })
				}
			}
		}
		for _, l := range literals[target.Type] {
			edits = append(edits, func(n *Node) { *n = *lit(n.Type, l) })
		}
	}
	out := []*Node{}
	for _, edit := range edits {
		c := root.clone()
		edit(nth(c, i))
		out = append(out, c)
	}
	return out
}

// literals replace expressions of each type, simplest first.
var literals = map[Type][]string{
	TInt:  {"1", "0", "NULL"},
	TBool: {"1", "0", "NULL"},
	TStr:  {"'a'", "NULL"},
	TDec:  {"1.50", "NULL"},
	TReal: {"1.50", "NULL"},
	TDate: {"'2024-01-01'", "NULL"},
}

// nth is node i of the tree in pre-order (dropped nodes left out), or nil.
func nth(root *Node, i int) *Node {
	var found *Node
	root.walk(func(n *Node) bool {
		if i == 0 {
			found = n
			return false
		}
		i--
		return true
	})
	return found
}
