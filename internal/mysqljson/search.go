package mysqljson

// Contains is JSON_CONTAINS(target, candidate): a scalar is contained in
// an equal scalar; an array candidate when each of its elements is
// contained in some element of an array target; any other candidate in an
// array target when it is contained in one of its elements; an object
// candidate in an object target when every key is in the target with a
// value containing the candidate's.
func Contains(target, cand Value) bool {
	switch t := target.(type) {
	case []Value:
		if c, ok := cand.([]Value); ok {
			for _, ce := range c {
				if !containedInSome(t, ce) {
					return false
				}
			}
			return true
		}
		return containedInSome(t, cand)
	case *Object:
		c, ok := cand.(*Object)
		if !ok {
			return false
		}
		for i, k := range c.Keys {
			tv, ok := t.Get(k)
			if !ok || !Contains(tv, c.Vals[i]) {
				return false
			}
		}
		return true
	}
	if _, ok := cand.([]Value); ok {
		return false
	}
	return Equal(target, cand)
}

func containedInSome(t []Value, c Value) bool {
	for _, te := range t {
		if Contains(te, c) {
			return true
		}
	}
	return false
}

// Overlaps is JSON_OVERLAPS: two arrays share an element, an array holds
// the scalar, two objects share a key with equal values, or two scalars
// are equal.
func Overlaps(a, b Value) bool {
	aa, aArr := a.([]Value)
	ba, bArr := b.([]Value)
	switch {
	case aArr && bArr:
		for _, x := range aa {
			if MemberOf(x, ba) {
				return true
			}
		}
		return false
	case aArr:
		return MemberOf(b, aa)
	case bArr:
		return MemberOf(a, ba)
	}
	ao, aObj := a.(*Object)
	bo, bObj := b.(*Object)
	if aObj && bObj {
		for i, k := range ao.Keys {
			if bv, ok := bo.Get(k); ok && Equal(ao.Vals[i], bv) {
				return true
			}
		}
		return false
	}
	return Equal(a, b)
}

// MemberOf is `v MEMBER OF(doc)`: v equals an element of the array doc,
// or doc itself when it is not an array.
func MemberOf(v, doc Value) bool {
	a, ok := doc.([]Value)
	if !ok {
		return Equal(v, doc)
	}
	for _, e := range a {
		if Equal(v, e) {
			return true
		}
	}
	return false
}

// Search is the paths of the strings under each match (document order)
// that like accepts, as JSON_SEARCH finds them; with one it stops at the
// first.
func Search(matches []Match, like func(string) bool, one bool) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(v Value, at string) bool
	walk = func(v Value, at string) bool {
		if s, ok := v.(string); ok && like(s) && !seen[at] {
			seen[at] = true
			out = append(out, at)
			return one
		}
		stop := false
		walkChildren(v, at, func(c Value, cat string) {
			if !stop {
				stop = walk(c, cat)
			}
		})
		return stop
	}
	for _, m := range matches {
		if walk(m.Val, m.Path) {
			break
		}
	}
	return out
}

// Keys is JSON_KEYS of an object: its keys as an array (ok false for
// anything else).
func Keys(v Value) (Value, bool) {
	o, ok := v.(*Object)
	if !ok {
		return nil, false
	}
	out := make([]Value, len(o.Keys))
	for i, k := range o.Keys {
		out[i] = k
	}
	return out, true
}
