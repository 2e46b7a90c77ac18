package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestErrorCodePrinted: an error MySQL numbers is printed as the mysql
// client prints it, number and SQLSTATE first.
func TestErrorCodePrinted(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"-c", "CREATE TABLE t (a INT); SELECT nosuch FROM t"}, strings.NewReader(""), &out, &errb); rc == 0 {
		t.Fatal("an unknown column succeeded")
	}
	want := "ERROR 1054 (42S22): statement at line 1: line 1:32: Unknown column 'nosuch' in 'field list'"
	if !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q lacks %q", errb.String(), want)
	}
}

// TestErrorCodeByMessage: an error numbered by its text, as the server
// numbers it, with the SQLSTATE MySQL 8 sends (22032, which go-mysql's
// table lacks).
func TestErrorCodeByMessage(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"-c", "SELECT JSON_EXTRACT('{', '$')"}, strings.NewReader(""), &out, &errb); rc == 0 {
		t.Fatal("invalid JSON text succeeded")
	}
	if want := "ERROR 3141 (22032): "; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q lacks %q", errb.String(), want)
	}
}
