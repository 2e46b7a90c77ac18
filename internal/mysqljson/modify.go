package mysqljson

// SetMode says which of JSON_SET, JSON_INSERT and JSON_REPLACE runs: SET
// writes whether or not the path exists, INSERT only where it does not,
// REPLACE only where it does.
type SetMode uint8

const (
	ModeSet SetMode = iota
	ModeInsert
	ModeReplace
)

// Set writes v at the path (which must be wildcard-free) in doc, which it
// modifies, and returns the new document. A path whose parent does not
// exist changes nothing. Past an array's end the value is appended; an
// index on a value that is not an array wraps it into one ([x, v]).
func Set(doc Value, pt Path, v Value, mode SetMode) Value {
	if pt.IsRoot() {
		if mode == ModeInsert {
			return doc
		}
		return v
	}
	return apply(doc, pt.legs, func(parent Value, l leg) Value {
		if l.kind == legMember {
			o, ok := parent.(*Object)
			if !ok {
				return parent
			}
			_, exists := o.Get(l.key)
			if (exists && mode != ModeInsert) || (!exists && mode != ModeReplace) {
				o.Set(l.key, v)
			}
			return o
		}
		a, isArr := parent.([]Value)
		n := 1
		if isArr {
			n = len(a)
		}
		i := l.from.at(n)
		switch {
		case i >= 0 && i < n:
			if mode == ModeInsert {
				return parent
			}
			if isArr {
				a[i] = v
				return a
			}
			return v
		case i < 0 || mode == ModeReplace:
			return parent
		case isArr:
			return append(a, v)
		}
		return []Value{parent, v}
	})
}

// Remove deletes the member or element the path names (JSON_REMOVE).
func Remove(doc Value, pt Path) Value {
	return apply(doc, pt.legs, func(parent Value, l leg) Value {
		if o, ok := parent.(*Object); ok && l.kind == legMember {
			o.Remove(l.key)
			return o
		}
		if a, ok := parent.([]Value); ok && l.kind == legIndex {
			if i := l.from.at(len(a)); i >= 0 && i < len(a) {
				return append(a[:i], a[i+1:]...)
			}
		}
		return parent
	})
}

// ArrayAppend appends v to the array at the path, or turns the value
// there into an array [x, v] (JSON_ARRAY_APPEND).
func ArrayAppend(doc Value, pt Path, v Value) Value {
	push := func(x Value) Value {
		if a, ok := x.([]Value); ok {
			return append(a, v)
		}
		return []Value{x, v}
	}
	if pt.IsRoot() {
		return push(doc)
	}
	return apply(doc, pt.legs, func(parent Value, l leg) Value {
		if l.kind == legMember {
			if o, ok := parent.(*Object); ok {
				if c, ok := o.Get(l.key); ok {
					o.Set(l.key, push(c))
				}
			}
			return parent
		}
		a, isArr := parent.([]Value)
		if !isArr {
			if l.from.at(1) == 0 {
				return push(parent)
			}
			return parent
		}
		if i := l.from.at(len(a)); i >= 0 && i < len(a) {
			a[i] = push(a[i])
		}
		return a
	})
}

// apply walks the wildcard-free legs but the last and hands the value
// reached and the last leg to last, storing what it returns in place of
// that value. A missing step leaves the document as it is.
func apply(cur Value, legs []leg, last func(parent Value, l leg) Value) Value {
	l := legs[0]
	if len(legs) == 1 {
		return last(cur, l)
	}
	switch l.kind {
	case legMember:
		o, ok := cur.(*Object)
		if !ok {
			return cur
		}
		if c, ok := o.Get(l.key); ok {
			o.Set(l.key, apply(c, legs[1:], last))
		}
		return o
	case legIndex:
		a, ok := cur.([]Value)
		if !ok {
			if l.from.at(1) == 0 {
				return apply(cur, legs[1:], last)
			}
			return cur
		}
		if i := l.from.at(len(a)); i >= 0 && i < len(a) {
			a[i] = apply(a[i], legs[1:], last)
		}
		return a
	}
	return cur
}

// MergePreserve is JSON_MERGE_PRESERVE of two documents: objects merge
// key by key (values of a shared key merged the same way), anything else
// becomes the concatenation of both as arrays.
func MergePreserve(a, b Value) Value {
	ao, aok := a.(*Object)
	bo, bok := b.(*Object)
	if aok && bok {
		for i, k := range bo.Keys {
			if av, ok := ao.Get(k); ok {
				ao.Set(k, MergePreserve(av, bo.Vals[i]))
			} else {
				ao.Set(k, bo.Vals[i])
			}
		}
		return ao
	}
	return append(asArray(a), asArray(b)...)
}

func asArray(v Value) []Value {
	if a, ok := v.([]Value); ok {
		return a
	}
	return []Value{v}
}

// MergePatch is JSON_MERGE_PATCH of two documents (RFC 7396): a patch
// that is not an object replaces the target; an object patch sets each of
// its members in the target (made an empty object if it is not one),
// merging objects recursively and removing members whose value is null.
func MergePatch(target, patch Value) Value {
	po, ok := patch.(*Object)
	if !ok {
		return patch
	}
	to, ok := target.(*Object)
	if !ok {
		to = &Object{}
	}
	for i, k := range po.Keys {
		if po.Vals[i] == nil {
			to.Remove(k)
			continue
		}
		cur, _ := to.Get(k)
		to.Set(k, MergePatch(cur, po.Vals[i]))
	}
	return to
}
