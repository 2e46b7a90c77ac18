package cpu

// projectionOp computes its expressions over the batch; column references
// pass the input vectors through without copying.
type projectionOp struct {
	evals []evaluator
	out   batch
	next  operator
}

func (p *projectionOp) push(b *batch) error {
	o := &p.out
	o.n, o.sel, o.morsel = b.n, b.sel, b.morsel
	for i, ev := range p.evals {
		o.cols[i] = ev.eval(b, b.sel)
	}
	return p.next.push(o)
}

// nilEval stands for a projected column nothing reads.
type nilEval struct{}

func (nilEval) eval(b *batch, sel []int32) *vec { return nil }
