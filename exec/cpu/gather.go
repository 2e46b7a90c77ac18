package cpu

import "gpusql/storage/columnar"

// prepare sets dst up as an owned vector of type t, dictionary d, for n
// positions.
func prepare(dst *vec, t columnar.Type, d *columnar.Dictionary, n int) {
	if dst.t != t {
		dst.t = t
		dst.i32, dst.i64, dst.f64, dst.vecs, dst.w = nil, nil, nil, nil, nil
	}
	dst.ensure(n)
	dst.dict = d
}

// gatherColAt writes col[idx[p]] into dst at each p of sel (idx[p] < 0:
// NULL). This is how build-side payload columns join a probe batch.
func gatherColAt(dst *vec, col *columnar.Column, idx []int32, sel []int32, n int) {
	prepare(dst, col.Type, col.Dict, n)
	miss := false
	switch {
	case col.I32 != nil:
		src, d := col.I32, dst.i32
		for _, p := range sel {
			if r := idx[p]; r >= 0 {
				d[p] = src[r]
			} else {
				miss = true
			}
		}
	case col.I64 != nil:
		src, d := col.I64, dst.i64
		for _, p := range sel {
			if r := idx[p]; r >= 0 {
				d[p] = src[r]
			} else {
				miss = true
			}
		}
	case col.F64 != nil:
		src, d := col.F64, dst.f64
		for _, p := range sel {
			if r := idx[p]; r >= 0 {
				d[p] = src[r]
			} else {
				miss = true
			}
		}
	case col.W != nil:
		src, d := col.W, dst.w
		for _, p := range sel {
			if r := idx[p]; r >= 0 {
				d[p] = src[r]
			} else {
				miss = true
			}
		}
	case col.F32 != nil:
		for _, p := range sel {
			if r := idx[p]; r >= 0 {
				dst.vecs[p] = col.VectorAt(int(r))
			} else {
				miss = true
			}
		}
	}
	if miss || col.Valid != nil {
		for _, p := range sel {
			if r := idx[p]; r < 0 || (col.Valid != nil && col.IsNull(int(r))) {
				dst.setNull(n, p)
			}
		}
	}
}

// gatherColDense writes col[idx[k]] into dst at positions k = 0..len(idx)-1.
func gatherColDense(dst *vec, col *columnar.Column, idx []int32) {
	n := len(idx)
	prepare(dst, col.Type, col.Dict, n)
	switch {
	case col.I32 != nil:
		for k, r := range idx {
			if r >= 0 {
				dst.i32[k] = col.I32[r]
			}
		}
	case col.I64 != nil:
		for k, r := range idx {
			if r >= 0 {
				dst.i64[k] = col.I64[r]
			}
		}
	case col.F64 != nil:
		for k, r := range idx {
			if r >= 0 {
				dst.f64[k] = col.F64[r]
			}
		}
	case col.W != nil:
		for k, r := range idx {
			if r >= 0 {
				dst.w[k] = col.W[r]
			}
		}
	case col.F32 != nil:
		for k, r := range idx {
			if r >= 0 {
				dst.vecs[k] = col.VectorAt(int(r))
			}
		}
	}
	for k, r := range idx {
		if r < 0 || (col.Valid != nil && col.IsNull(int(r))) {
			dst.setNull(n, int32(k))
		}
	}
}

// gatherVecDense writes src[idx[k]] into dst at positions k.
func gatherVecDense(dst *vec, src *vec, idx []int32) {
	n := len(idx)
	prepare(dst, src.t, src.dict, n)
	switch {
	case src.i32 != nil:
		for k, p := range idx {
			dst.i32[k] = src.i32[p]
		}
	case src.i64 != nil:
		for k, p := range idx {
			dst.i64[k] = src.i64[p]
		}
	case src.f64 != nil:
		for k, p := range idx {
			dst.f64[k] = src.f64[p]
		}
	case src.w != nil:
		for k, p := range idx {
			dst.w[k] = src.w[p]
		}
	case src.vecs != nil:
		for k, p := range idx {
			dst.vecs[k] = src.vecs[p]
		}
	}
	if src.nulls != nil {
		nl := dst.nullsFor(n)
		for k, p := range idx {
			nl[k] = src.nulls[p]
		}
	}
}

// nullVec returns an all-NULL vector of type t for batchSize positions.
func nullVec(t columnar.Type) *vec {
	v := newVec(t)
	v.ensure(batchSize)
	nl := v.nullsFor(batchSize)
	for i := range nl {
		nl[i] = true
	}
	if t.ID == columnar.String {
		v.dict = &columnar.Dictionary{}
	}
	return v
}
