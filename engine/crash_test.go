package engine

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The crash test: a child process (this test binary re-executed) runs a
// fixed workload of loads, inserts, updates, deletes, DDL and transactions
// on a database directory and prints "ok N" after step N returns; the
// parent kills it with SIGKILL at a random moment, reopens the directory
// and checks that every table (rows, values, in order), index and view is
// exactly the state after the last acknowledged step, or after the next
// one (which may have committed before its acknowledgement got out), as
// computed by running the same steps in memory. Then a new child goes on
// from there. GPUSQL_CRASH_KILLS sets the number of kills (default 300).

const crashChildEnv = "GPUSQL_CRASH_CHILD"

func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashChildEnv)
	if dir == "" {
		t.Skip("the child half of TestCrashKill")
	}
	from, _ := strconv.Atoi(os.Getenv("GPUSQL_CRASH_FROM"))
	steps := crashWorkload(os.Getenv("GPUSQL_CRASH_DATA"))
	db, err := Open(Options{Executor: "cpu", Path: dir, NoSync: os.Getenv("GPUSQL_CRASH_NOSYNC") != ""})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	out := bufio.NewWriter(os.Stdout)
	for i := from; i < len(steps); i++ {
		if _, err := db.Exec(context.Background(), steps[i], ""); err != nil {
			fmt.Fprintln(out, "error", i, err)
			out.Flush()
			os.Exit(3)
		}
		fmt.Fprintln(out, "ok", i)
		out.Flush()
	}
	fmt.Fprintln(out, "done")
	out.Flush()
	os.Exit(0)
}

// crashWorkload is the steps the child runs; each is one statement or one
// transaction, so each is atomic.
func crashWorkload(data string) []string {
	r := rand.New(rand.NewSource(14))
	steps := []string{
		"CREATE TABLE a (id INT PRIMARY KEY, s VARCHAR(20), v DOUBLE, d DECIMAL(12,2))",
		"CREATE TABLE b (k BIGINT, note VARCHAR(10), day DATE)",
	}
	next := 0
	row := func() string {
		next++
		s := "NULL"
		if next%7 != 0 {
			s = fmt.Sprintf("'s%d'", r.Intn(50))
		}
		return fmt.Sprintf("(%d, %s, %d.5, %d.25)", next, s, r.Intn(1000), r.Intn(100000))
	}
	rows := func(n int) string {
		var vs []string
		for range n {
			vs = append(vs, row())
		}
		return strings.Join(vs, ", ")
	}
	for i := 0; len(steps) < 800; i++ {
		switch k := r.Intn(12); {
		case k < 4 || next == 0:
			steps = append(steps, "INSERT INTO a VALUES "+rows(1+r.Intn(5)))
		case k < 6:
			steps = append(steps, fmt.Sprintf("LOAD DATA INFILE '%s' INTO TABLE b FIELDS TERMINATED BY ','",
				filepath.Join(data, fmt.Sprintf("b%d.csv", r.Intn(4)))))
		case k == 6:
			steps = append(steps, fmt.Sprintf("UPDATE a SET v = v + 1, s = 'u%d' WHERE id %% 5 = %d", i, r.Intn(5)))
		case k == 7:
			steps = append(steps, fmt.Sprintf("DELETE FROM b WHERE k %% 7 = %d", r.Intn(7)))
		case k == 8:
			steps = append(steps, fmt.Sprintf("BEGIN; INSERT INTO a VALUES %s; DELETE FROM a WHERE id %% 11 = %d; COMMIT", rows(3), r.Intn(11)))
		case k == 9:
			steps = append(steps, fmt.Sprintf("CREATE TABLE c%d AS SELECT id, s FROM a WHERE id %% 3 = 0", i))
			steps = append(steps, fmt.Sprintf("DROP TABLE c%d", i))
		case k == 10:
			steps = append(steps, fmt.Sprintf("CREATE OR REPLACE VIEW v AS SELECT count(*) AS n%d FROM a", i))
		default:
			steps = append(steps, fmt.Sprintf("REPLACE INTO a VALUES (%d, 'r', 0, 0)", 1+r.Intn(next)))
		}
	}
	return steps
}

func writeCrashData(t *testing.T, dir string) {
	for f := range 4 {
		var b strings.Builder
		for i := range 20 + 30*f {
			fmt.Fprintf(&b, "%d,n%d,2020-01-%02d\n", i*(f+1), i%9, 1+i%28)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("b%d.csv", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fingerprint is a database's content: per table its rows and a hash of
// every value in row order, its indexes, and the views.
func fingerprint(db *DB) string {
	cat := db.Catalog()
	var parts []string
	for _, name := range cat.Names() {
		tb, _ := cat.Table(name)
		h := fnv.New64a()
		for i := 0; i < tb.Rows; i++ {
			for _, c := range tb.Columns {
				var v uint64
				switch {
				case c.IsNull(i):
					v = 1<<63 + 1
				case c.Dict != nil:
					h.Write([]byte(c.StringAt(i)))
				case c.F64 != nil:
					v = math.Float64bits(c.F64[i])
				default:
					v = uint64(c.Int64At(i))
				}
				binary.Write(h, binary.LittleEndian, v)
			}
		}
		var ixs []string
		for _, ix := range cat.Indexes(name) {
			ixs = append(ixs, ix.Name)
		}
		parts = append(parts, fmt.Sprintf("%s:%d:%x:%v", name, tb.Rows, h.Sum64(), ixs))
	}
	for _, v := range cat.ViewNames() {
		vw, _ := cat.View(v)
		parts = append(parts, "view "+v+" "+vw.SQL)
	}
	sort.Strings(parts)
	return strings.Join(parts, "\n")
}

func TestCrashKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child processes; skipped in -short")
	}
	kills := 300
	if s := os.Getenv("GPUSQL_CRASH_KILLS"); s != "" {
		kills, _ = strconv.Atoi(s)
	}
	data := t.TempDir()
	writeCrashData(t, data)
	steps := crashWorkload(data)
	mem, err := Open(Options{Executor: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	want := []string{fingerprint(mem)} // want[n]: after n steps
	for _, s := range steps {
		if _, err := mem.Exec(context.Background(), s, ""); err != nil {
			t.Fatalf("in memory: %s: %v", s, err)
		}
		want = append(want, fingerprint(mem))
	}
	t.Logf("workload of %d steps in memory: %v", len(steps), time.Since(start))
	// Lanes, each on its own directory, run at once (a child spends most
	// of its life waiting: on its start, on fsync). Lane 0 writes as a
	// user's database does, fsync included; fsync costs tens of ms on a
	// busy virtual disk, so the other lanes skip it (Options.NoSync: a
	// killed process loses nothing the page cache holds) to fit hundreds
	// of kills in seconds.
	const lanes, syncKills = 4, 20
	start = time.Now()
	var wg sync.WaitGroup
	reached := make([]int, lanes)
	for lane := range lanes {
		n := (kills - syncKills) / (lanes - 1)
		switch lane {
		case 0:
			n = syncKills
		case 1:
			n += (kills - syncKills) % (lanes - 1)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			reached[lane] = crashLane(t, filepath.Join(t.TempDir(), "db"), data, steps, want, n, lane != 0, int64(lane))
		}()
	}
	wg.Wait()
	t.Logf("%d kills survived in %v (lanes reached steps %v of %d)", kills, time.Since(start), reached, len(steps))
}

// crashLane kills children on dir kills times, checking the database after
// each kill; it returns the furthest step committed.
func crashLane(t *testing.T, dir, data string, steps, want []string, kills int, noSync bool, seed int64) int {
	r := rand.New(rand.NewSource(time.Now().UnixNano() + seed))
	committed, maxStep := 0, 0
	for kill := 0; kill < kills; kill++ {
		var acked int
		var done bool
		err := retryWhileLocked(func() (err error) {
			acked, done, err = runAndKill(dir, data, committed, noSync, r)
			return err
		})
		if err != nil {
			t.Error(err)
			return maxStep
		}
		var db *DB
		if err := retryWhileLocked(func() (err error) {
			db, err = Open(Options{Executor: "cpu", Path: dir})
			return err
		}); err != nil {
			t.Errorf("kill %d: reopen: %v", kill, err)
			return maxStep
		}
		got := fingerprint(db)
		db.Close()
		switch {
		case got == want[acked]:
			committed = acked
		case acked < len(steps) && got == want[acked+1]:
			committed = acked + 1
		default:
			t.Errorf("kill %d after step %d was acknowledged: the database holds\n%s\nwant the state after step %d:\n%s",
				kill, acked, got, acked, want[acked])
			return maxStep
		}
		maxStep = max(maxStep, committed)
		if done || committed == len(steps) {
			os.RemoveAll(dir)
			committed = 0
		}
	}
	return maxStep
}

// retryWhileLocked runs f again while it fails on the database lock.
// Lanes run in one test process, so another lane's child, forked but not
// yet exec'd (long on a loaded machine), may hold a copy of this process's
// lock descriptor from a reopen check just closed, or the killed child's
// lock may outlive it by a scheduling moment; either frees itself.
func retryWhileLocked(f func() error) error {
	err := f()
	for retry := 0; err != nil && strings.Contains(err.Error(), "is locked by process") && retry < 100; retry++ {
		time.Sleep(20 * time.Millisecond)
		err = f()
	}
	return err
}

// runAndKill starts a child on dir at step from, lets it acknowledge a few
// steps, kills it at a random moment and returns the number of steps
// committed for sure (from plus its acknowledgements).
func runAndKill(dir, data string, from int, noSync bool, r *rand.Rand) (acked int, done bool, err error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, "GPUSQL_CRASH_DATA="+data, "GPUSQL_CRASH_FROM="+strconv.Itoa(from))
	if noSync {
		cmd.Env = append(cmd.Env, "GPUSQL_CRASH_NOSYNC=1")
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, false, err
	}
	if err := cmd.Start(); err != nil {
		return 0, false, err
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	acked = from
	wait := r.Intn(6)
	deadline := time.After(time.Duration(r.Intn(4000)) * time.Microsecond)
	for n := 0; ; {
		var timeout <-chan time.Time
		if n >= wait {
			timeout = deadline
		}
		select {
		case line, ok := <-lines:
			if !ok {
				cmd.Wait()
				return acked, done, nil
			}
			switch f := strings.Fields(line); {
			case len(f) == 2 && f[0] == "ok":
				k, _ := strconv.Atoi(f[1])
				acked, n = k+1, n+1
			case line == "done":
				done = true
			case len(f) > 0 && f[0] == "error":
				cmd.Process.Kill()
				cmd.Wait()
				return acked, done, fmt.Errorf("child: %s", line)
			}
		case <-timeout:
			cmd.Process.Signal(syscall.SIGKILL)
			for line := range lines {
				if f := strings.Fields(line); len(f) == 2 && f[0] == "ok" {
					k, _ := strconv.Atoi(f[1])
					acked = k + 1
				}
			}
			cmd.Wait()
			return acked, done, nil
		}
	}
}
