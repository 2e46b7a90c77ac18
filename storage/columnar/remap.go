package columnar

import (
	"fmt"
	"slices"
)

// Replica-remapped columns, after Sitaridi and Ross, "Ameliorating Memory
// Contention of OLAP Operators on GPU Processors" (DaMoN 2012).
//
// A kernel that looks up (join) or updates (grouped aggregation) a small
// table in shared memory by a fact column's value serializes when the 32
// threads of a warp hit one bank for different words (bank conflicts) or,
// for atomics, the same word (value conflicts). Under skew both are common.
// The remedy, computed once at load time: give each value copies (slots)
// in distinct banks and rewrite each row's value to one of its copies so
// that, chunk by chunk (the rows of one warp under the kernel's static
// row-to-thread assignment), the rows of a chunk hit distinct banks, or
// the same word only when they read the same value. The kernel then loads
// the table into shared memory in the remapped layout (slot s holds the
// entry of value SlotValue[s], in bank s mod Banks) and indexes it by the
// row's slot.
//
// Placement per row, as the paper does it: first fit (a copy of the value
// whose bank is free in this chunk, least recently used first); else the
// shortest relocation sequence, found by breadth-first search, that frees
// a bank holding a copy by moving the chunk's rows to other copies of
// their values; else a new copy in the emptiest free bank while the value
// has fewer than Budget copies; else the row conflicts.

// RemapOptions configure BuildRemap.
type RemapOptions struct {
	// Banks is the number of shared-memory banks and Chunk the rows one
	// warp processes together (32 and 32 on every NVIDIA GPU).
	Banks, Chunk int
	// Atomic: rows update their slot with atomics, so two rows of a chunk
	// on the same copy serialize too (grouping columns); otherwise rows
	// only read and may share a copy (join keys).
	Atomic bool
	// Window: with Atomic, a copy used in one of the previous Window
	// chunks is not reused (consecutive warps are in flight together).
	Window int
	// Budget bounds the copies of one value.
	Budget int
}

// DefaultRemapOptions are the H100's banks and warp, reads, 8 copies.
func DefaultRemapOptions() RemapOptions {
	return RemapOptions{Banks: 32, Chunk: 32, Budget: 8}
}

// Remap is a remapped column: Slots[i] is row i's slot, SlotValue[s] the
// value slot s copies.
type Remap struct {
	Slots     []int32
	SlotValue []int32
	// Rounds and PlainRounds are the serialization rounds summed over
	// chunks (the most accesses one bank serves in a chunk: 1 is
	// conflict-free), remapped and with the plain layout (value v in
	// bank v mod Banks).
	Rounds, PlainRounds int64
	Chunks              int64
}

// CopiesPerValue is the copies per value the remap made: slots holding a
// value over the values that occur (each has one copy at least). Slots
// left unused by the bank-level layout count in len(SlotValue), the table's
// size, but not here.
func (r *Remap) CopiesPerValue() float64 {
	used, values := 0, map[int32]bool{}
	for _, v := range r.SlotValue {
		if v >= 0 {
			used++
			values[v] = true
		}
	}
	return float64(used) / float64(max(len(values), 1))
}

// remapper is BuildRemap's state.
type remapper struct {
	o         RemapOptions
	copies    [][]int32 // per value, its slots
	lastUse   []int64   // per slot, the last chunk that used it
	bankSlots []int     // per bank, slots placed in it
	slotValue []int32
	// Per chunk: the row occupying each bank (-1 free) and each row's slot.
	bankRow []int
	rowSlot []int32
	// bankMask is Banks-1 when Banks is a power of two, else -1.
	bankMask int
	// bankLoad counts the chunk's rows placed in each bank so far.
	bankLoad []int
	// scratch and queue are reused by the searches.
	scratch []bool
	queue   []moveStep
}

// BuildRemap remaps values, each in [0, distinct).
func BuildRemap(values []int32, distinct int, o RemapOptions) (*Remap, error) {
	if o.Banks <= 0 || o.Chunk <= 0 || o.Budget <= 0 {
		return nil, fmt.Errorf("remap: banks, chunk and budget must be positive (got %d, %d, %d)", o.Banks, o.Chunk, o.Budget)
	}
	m := &remapper{o: o, copies: make([][]int32, distinct), bankSlots: make([]int, o.Banks),
		bankRow: make([]int, o.Banks), rowSlot: make([]int32, o.Chunk), bankLoad: make([]int, o.Banks), scratch: make([]bool, o.Banks)}
	m.bankMask = -1
	if o.Banks&(o.Banks-1) == 0 {
		m.bankMask = o.Banks - 1
	}
	out := &Remap{Slots: make([]int32, len(values))}
	for i, v := range values {
		if v < 0 || int(v) >= distinct {
			return nil, fmt.Errorf("remap: row %d: value %d outside [0, %d)", i, v, distinct)
		}
	}
	for start := 0; start < len(values); start += o.Chunk {
		chunk := values[start:min(start+o.Chunk, len(values))]
		m.placeChunk(chunk, int64(start/o.Chunk))
		copy(out.Slots[start:], m.rowSlot[:len(chunk)])
		out.Rounds += rounds(m.rowSlot[:len(chunk)], o)
		out.PlainRounds += rounds(chunk, o)
		out.Chunks++
	}
	out.SlotValue = m.slotValue
	return out, nil
}

// rounds is the serialization of one chunk accessing slots (ChunkRounds).
func rounds(slots []int32, o RemapOptions) int64 {
	return int64(ChunkRounds(slots, o.Banks, o.Atomic))
}

// ChunkRounds is the serialization rounds of one warp accessing the 4-byte
// words words of shared memory (word w in bank w mod banks): per bank the
// distinct words it serves (reads of one word broadcast) or, for atomics,
// every access; the busiest bank sets the rounds. 1 is conflict-free.
func ChunkRounds(words []int32, banks int, atomic bool) int {
	var perBank [64]int
	var count []int
	if banks <= len(perBank) {
		count = perBank[:banks]
	} else {
		count = make([]int, banks)
	}
	worst := 0
	for i, w := range words {
		if !atomic && slices.Contains(words[:i], w) {
			continue
		}
		b := int(w) % banks
		count[b]++
		worst = max(worst, count[b])
	}
	return worst
}

func (m *remapper) placeChunk(chunk []int32, id int64) {
	for b := range m.bankRow {
		m.bankRow[b] = -1
	}
	clear(m.bankLoad)
	for i, v := range chunk {
		m.rowSlot[i] = m.place(chunk, i, v, id)
		m.bankLoad[m.bank(m.rowSlot[i])]++
	}
	for i := range chunk {
		m.lastUse[m.rowSlot[i]] = id
	}
}

// place finds row i (value v) a slot for this chunk.
func (m *remapper) place(chunk []int32, i int, v int32, id int64) int32 {
	if !m.o.Atomic {
		// Reads of one value share its copy.
		for j := 0; j < i; j++ {
			if chunk[j] == v {
				return m.rowSlot[j]
			}
		}
	}
	if s, ok := m.firstFit(v, id); ok {
		m.bankRow[m.bank(s)] = i
		return s
	}
	if s, ok := m.relocate(chunk, i, v, id); ok {
		m.bankRow[m.bank(s)] = i
		return s
	}
	if len(m.copies[v]) < m.o.Budget {
		if b, ok := m.emptiestFreeBank(v); ok {
			s := m.newSlot(v, b)
			m.bankRow[b] = i
			return s
		}
	}
	// A conflict: the copy whose bank serves the fewest rows of this chunk
	// so far (or a first copy), so that the rows that must conflict spread
	// over the value's copies instead of piling onto one.
	if len(m.copies[v]) == 0 {
		return m.newSlot(v, m.emptiestBank())
	}
	return m.leastLoaded(v)
}

// leastLoaded is v's copy in the bank the chunk's rows placed so far use
// least, the least recently used among equals.
func (m *remapper) leastLoaded(v int32) int32 {
	best, bestLoad := int32(-1), 0
	for _, s := range m.copies[v] {
		load := m.bankLoad[m.bank(s)]
		if best < 0 || load < bestLoad || load == bestLoad && m.lastUse[s] < m.lastUse[best] {
			best, bestLoad = s, load
		}
	}
	return best
}

// bank is slot s's bank: s mod Banks (a mask for the usual 32).
func (m *remapper) bank(s int32) int {
	if m.bankMask >= 0 {
		return int(s) & m.bankMask
	}
	return int(s) % m.o.Banks
}

// usable reports whether slot s may serve a row of this chunk: its bank is
// free and, for atomics, it was not used in the last Window chunks.
func (m *remapper) usable(s int32, id int64) bool {
	return m.bankRow[m.bank(s)] < 0 && m.fresh(s, id)
}

// firstFit is the least recently used usable copy of v.
func (m *remapper) firstFit(v int32, id int64) (int32, bool) {
	best, found := int32(-1), false
	for _, s := range m.copies[v] {
		if m.usable(s, id) && (!found || m.lastUse[s] < m.lastUse[best]) {
			best, found = s, true
		}
	}
	return best, found
}

// moveStep is a node of relocate's search: the chunk's rows on the copy
// in bank must move so that the previous step's rows (or the new row, via
// -1) can take slot, a copy in bank.
type moveStep struct {
	bank int
	via  int
	slot int32
}

// relocate searches breadth-first for the shortest sequence of moves that
// frees a bank holding a copy of v: the rows on the copy in that bank move
// to another copy of their value in a free bank, or in a bank whose rows
// move on, and so on. It applies the moves and returns v's freed copy.
// Rows 0..upto-1 of the chunk are placed.
func (m *remapper) relocate(chunk []int32, upto int, v int32, id int64) (int32, bool) {
	queue := m.queue[:0]
	defer func() { m.queue = queue[:0] }()
	seen := m.scratch[:m.o.Banks]
	clear(seen)
	for _, s := range m.copies[v] {
		b := m.bank(s)
		if !seen[b] && m.bankRow[b] >= 0 && m.fresh(s, id) {
			seen[b] = true
			queue = append(queue, moveStep{b, -1, s})
		}
	}
	for q := 0; q < len(queue); q++ {
		u := chunk[m.bankRow[queue[q].bank]]
		for _, s := range m.copies[u] {
			b := m.bank(s)
			if seen[b] || !m.fresh(s, id) {
				continue
			}
			seen[b] = true
			if m.bankRow[b] < 0 {
				m.applyMoves(queue, q, s, upto)
				for queue[q].via >= 0 {
					q = queue[q].via
				}
				return queue[q].slot, true
			}
			queue = append(queue, moveStep{b, q, s})
		}
	}
	return 0, false
}

// applyMoves moves the rows on queue[q]'s bank to slot to, then the rows
// of each earlier step into the copy its successor's rows left.
func (m *remapper) applyMoves(queue []moveStep, q int, to int32, upto int) {
	for q >= 0 {
		from := m.rowSlot[m.bankRow[queue[q].bank]]
		holder := m.bankRow[queue[q].bank]
		for j := 0; j < upto; j++ {
			if m.rowSlot[j] == from {
				m.rowSlot[j] = to
				m.bankLoad[m.bank(from)]--
				m.bankLoad[m.bank(to)]++
			}
		}
		m.bankRow[queue[q].bank] = -1
		m.bankRow[m.bank(to)] = holder
		to = queue[q].slot
		q = queue[q].via
	}
}

// fresh reports whether copy s may serve this chunk by the window rule
// (atomics only): unused in the last Window chunks.
func (m *remapper) fresh(s int32, id int64) bool {
	return !m.o.Atomic || m.o.Window == 0 || m.lastUse[s] < id-int64(m.o.Window)
}

// emptiestFreeBank is the bank free in this chunk, holding no copy of v,
// with the fewest slots: copies spread evenly over the banks.
func (m *remapper) emptiestFreeBank(v int32) (int, bool) {
	has := m.scratch[:m.o.Banks]
	clear(has)
	for _, s := range m.copies[v] {
		has[m.bank(s)] = true
	}
	best := -1
	for b := range m.bankRow {
		if m.bankRow[b] < 0 && !has[b] && (best < 0 || m.bankSlots[b] < m.bankSlots[best]) {
			best = b
		}
	}
	return best, best >= 0
}

func (m *remapper) emptiestBank() int {
	best := 0
	for b := range m.bankSlots {
		if m.bankSlots[b] < m.bankSlots[best] {
			best = b
		}
	}
	return best
}

// newSlot places a new copy of v in bank b: slots fill the banks level by
// level, slot = level·Banks + b.
func (m *remapper) newSlot(v int32, b int) int32 {
	s := int32(m.bankSlots[b]*m.o.Banks + b)
	m.bankSlots[b]++
	for int(s) >= len(m.slotValue) {
		m.slotValue = append(m.slotValue, -1)
		m.lastUse = append(m.lastUse, neverUsed)
	}
	m.slotValue[s] = v
	m.copies[v] = append(m.copies[v], s)
	return s
}

// neverUsed is the last use of a copy no chunk used yet.
const neverUsed = -1 << 40
