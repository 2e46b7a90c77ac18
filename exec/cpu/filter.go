package cpu

// filterOp narrows the batch's selection to the rows where the predicate is
// TRUE; batches left empty go no further.
type filterOp struct {
	sel  selector
	next operator
}

func (f *filterOp) push(b *batch) error {
	s := f.sel.filter(b, b.sel)
	if len(s) == 0 {
		return nil
	}
	b.sel = s
	return f.next.push(b)
}
