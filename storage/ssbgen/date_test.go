package ssbgen

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// dbgenSample is the reference dbgen output at SF1: all of date.tbl and the
// first 50 rows of the other tables.
const dbgenSample = "../../../shared/testdata/ssb-dbgen-sf1-sample/"

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(dbgenSample + name)
	if os.IsNotExist(err) {
		t.Skipf("reference dbgen sample %s not found; it lives in /work/shared/testdata", dbgenSample+name)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDateMatchesDbgen(t *testing.T) {
	want := readSample(t, "date.tbl")
	bt := newBatch(dateSpecs)
	fillDate(bt)
	got := appendTbl(nil, bt)
	if bytes.Equal(got, want) {
		return
	}
	gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gl), len(wl)) {
		if gl[i] != wl[i] {
			t.Fatalf("date.tbl line %d:\n got %s\nwant %s", i+1, gl[i], wl[i])
		}
	}
	t.Fatalf("date.tbl has %d lines, dbgen's %d", len(gl), len(wl))
}
